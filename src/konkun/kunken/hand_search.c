/* The C core of konkun.kunken.arrangement.HandSearch: the bounded, memoised search for melds
 * worth at least a number of points (docs/kunken.md, "Speed", "The C core"); and, at the end
 * of this file, whether a take turn can be completed by melds alone (solver.can_complete)
 * and the exact completion judge of a take turn (completion.completable).
 *
 * It runs the search of arrangement.ReferenceSearch (the pure Python reference, used when
 * this module is not built) over the same options in the same order. The melds of each group
 * of hand_melds.hand_meld_groups (a rank's sets, a suit's sequences, with the readings of
 * joker_for_held) are listed here, in hand_melds.meld_group's order, the first time a search
 * meets the group, and kept; arrangement.group_options is their Python reference, and the
 * tests compare both over every group. Every argument is checked before the search uses it:
 * bad input raises TypeError or ValueError, and nothing reads or writes outside the arrays.
 *
 * A remaining hand's code is two 64-bit words: the count of card k (0..25) at bits 2k of
 * the first, of card k (26..51) at bits 2(k-26) of the second; the memo key adds the jokers
 * (bits 52..54) and whether a card must be left (bit 55) to the first word. The memo holds,
 * per key, an interval: the remaining hand's best is at least lo and less than hi. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#define CARDS 52
#define SLOTS 53               /* the 52 cards and the jokers */
#define MAX_COPIES 3           /* two bits per card in a hand code */
#define MAX_JOKERS 7           /* three bits in a memo key */
#define MAX_REALS 13           /* a sequence of 13 cards */
#define RANKS 13
#define SUITS 4
#define SET_JOKERS 2           /* a set depends on at most 2 jokers */
#define SEQUENCE_JOKERS 6      /* a sequence on at most 6 */
#define BOUND (1 << 30)        /* |need| stays below it */
#define SMALL (1 << 16)        /* points and values stay below it (no int overflows) */
#define UNBOUNDED (1 << 30)    /* hi when nothing bounds the best from above */
#define LEAVE_VALUE 5          /* the least a card kept for the discard is worth */
#define EMPTY UINT64_MAX       /* a free memo slot's second word (a code uses 52 bits) */

typedef struct {
    uint8_t reals[MAX_REALS];
    int low;                   /* its lowest real card */
    int n_reals;
    int used;                  /* jokers */
    int points;
    int lost;                  /* its cards' value in the hand */
    uint64_t code_lo, code_hi; /* its cards' part of a hand code */
    uint8_t start, length;     /* a sequence's window (length 0: a set, its jokers open) */
} Option;

typedef struct {
    uint64_t key_lo, key_hi;
    int32_t lo, hi;
} Entry;

typedef struct {
    PyObject_HEAD
    Option *options;           /* by lowest card: options[first[k]..first[k+1]) */
    Py_ssize_t first[CARDS + 1];
    char live[SLOTS];          /* whether a card is in some option (live[52]: jokers, no) */
    Entry *memo;
    size_t memo_size;          /* a power of two */
    size_t memo_used;
} SearchObject;

/* Set by configure(): each card's points in hand (value[52]: a joker), and the points of an
 * open set joker of each rank position. */
static int value[SLOTS];
static int position_value[RANKS];
static int configured = 0;

static uint64_t card_code(int k, int *word) {
    *word = k >= 26;
    return (uint64_t)1 << (2 * (k % 26));
}

static size_t slot_of(const SearchObject *self, uint64_t lo, uint64_t hi) {
    uint64_t h = lo * 0x9E3779B97F4A7C15ULL ^ (hi + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    return (size_t)h & (self->memo_size - 1);
}

static Entry *memo_find(const SearchObject *self, uint64_t lo, uint64_t hi) {
    size_t i = slot_of(self, lo, hi);
    for (;;) {
        Entry *e = &self->memo[i];
        if (e->key_hi == EMPTY) return NULL;
        if (e->key_lo == lo && e->key_hi == hi) return e;
        i = (i + 1) & (self->memo_size - 1);
    }
}

static int memo_grow(SearchObject *self) {
    size_t size = self->memo_size ? self->memo_size * 2 : 256;
    Entry *fresh = PyMem_Malloc(size * sizeof(Entry));
    if (fresh == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < size; i++) fresh[i].key_hi = EMPTY;
    Entry *old = self->memo;
    size_t old_size = self->memo_size;
    self->memo = fresh;
    self->memo_size = size;
    for (size_t i = 0; i < old_size; i++) {
        if (old[i].key_hi == EMPTY) continue;
        size_t j = slot_of(self, old[i].key_lo, old[i].key_hi);
        while (fresh[j].key_hi != EMPTY) j = (j + 1) & (size - 1);
        fresh[j] = old[i];
    }
    PyMem_Free(old);
    return 0;
}

/* Record that the best of the hand under (lo, hi) is in [bound_lo, bound_hi). */
static int memo_store(SearchObject *self, uint64_t lo, uint64_t hi, int32_t bound_lo,
                      int32_t bound_hi) {
    Entry *e = self->memo_size ? memo_find(self, lo, hi) : NULL;
    if (e == NULL) {
        if ((self->memo_used + 1) * 2 > self->memo_size && memo_grow(self) < 0) return -1;
        size_t i = slot_of(self, lo, hi);
        while (self->memo[i].key_hi != EMPTY) i = (i + 1) & (self->memo_size - 1);
        e = &self->memo[i];
        e->key_lo = lo;
        e->key_hi = hi;
        self->memo_used++;
    }
    e->lo = bound_lo;
    e->hi = bound_hi;
    return 0;
}

/* Whether melds worth need can be laid from counts (live cards only, the lowest at or above
 * start), keeping a card when leave: 1, 0, or -1 with an exception set. */
static int reach(SearchObject *self, int *counts, int start, uint64_t lo, uint64_t hi,
                 int total, int leave, int need) {
    int jokers = counts[CARDS];
    if (need <= 0) return !leave || total > 0;
    if (total - (leave ? LEAVE_VALUE : 0) < need) return 0;
    int k = start;
    while (counts[k] == 0) {
        k++;
        if (k == CARDS) return 0;
    }
    uint64_t key_lo = lo | (uint64_t)jokers << 52 | (uint64_t)leave << 55;
    int have = 0;
    int32_t known_lo = 0, known_hi = 0;
    if (self->memo_size) {
        Entry *known = memo_find(self, key_lo, hi);
        if (known != NULL) {
            have = 1;
            known_lo = known->lo;
            known_hi = known->hi;
            if (need <= known_lo) return 1;
            if (need >= known_hi) return 0;
        }
    }
    int ok = 0;
    for (Py_ssize_t i = self->first[k]; i < self->first[k + 1] && !ok; i++) {
        const Option *o = &self->options[i];
        if (o->used > jokers) continue;
        int r;
        for (r = 0; r < o->n_reals; r++)
            if (counts[o->reals[r]] == 0) break;
        if (r < o->n_reals) continue;
        for (r = 0; r < o->n_reals; r++) counts[o->reals[r]]--;
        counts[CARDS] -= o->used;
        ok = reach(self, counts, k, lo - o->code_lo, hi - o->code_hi, total - o->lost, leave,
                   need - o->points);
        counts[CARDS] += o->used;
        for (r = 0; r < o->n_reals; r++) counts[o->reals[r]]++;
        if (ok < 0) return -1;
    }
    if (!ok) {
        int word;
        uint64_t bit = card_code(k, &word);
        counts[k]--;
        ok = reach(self, counts, k, word ? lo : lo - bit, word ? hi - bit : hi,
                   total - value[k], 0, need);
        counts[k]++;
        if (ok < 0) return -1;
    }
    int32_t new_lo, new_hi;
    if (!have) {
        new_lo = ok ? need : 0;
        new_hi = ok ? UNBOUNDED : need;
    } else {
        new_lo = ok && need > known_lo ? need : known_lo;
        new_hi = !ok && need < known_hi ? need : known_hi;
    }
    if (memo_store(self, key_lo, hi, new_lo, new_hi) < 0) return -1;
    return ok;
}

/* Whether the int item is stored in one digit, its value then in v: read without a call
 * (most of the ints read are card numbers and counts). */
static inline int compact_long(PyObject *item, long *v) {
#if PY_VERSION_HEX >= 0x030C0000
    if (!PyUnstable_Long_IsCompact((PyLongObject *)item)) return 0;
    *v = (long)PyUnstable_Long_CompactValue((PyLongObject *)item);
#else
    Py_ssize_t size = Py_SIZE(item);
    if (size < -1 || size > 1) return 0;
    *v = (long)size * (long)((PyLongObject *)item)->ob_digit[0];
#endif
    return 1;
}

/* int_in for any object: the checks and the errors. */
static int int_in_checked(PyObject *item, long low, long high, const char *what,
                          Py_ssize_t index, int *out) {
    if (!PyLong_Check(item) || PyBool_Check(item)) {
        if (index < 0)
            PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what,
                         Py_TYPE(item)->tp_name);
        else
            PyErr_Format(PyExc_TypeError, "%s %zd must be an int, not %.100s", what, index,
                         Py_TYPE(item)->tp_name);
        return -1;
    }
    long v;
    int overflow = 0;
    if (!compact_long(item, &v)) {
        v = PyLong_AsLongAndOverflow(item, &overflow);
        if (v == -1 && PyErr_Occurred()) return -1;
    }
    if (overflow || v < low || v > high) {
        if (index < 0)
            PyErr_Format(PyExc_ValueError, "%s is %R, not in %ld..%ld", what, item, low, high);
        else
            PyErr_Format(PyExc_ValueError, "%s %zd is %R, not in %ld..%ld", what, index, item,
                         low, high);
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* An int argument in [low, high], else ValueError (TypeError when not an int); index < 0:
 * the argument is not one of a sequence's items. Inline for the common case, an exact int
 * of one digit in range (a few instructions where the checks take some fifty: the tables
 * and melds are read at every call). */
static inline int int_in(PyObject *item, long low, long high, const char *what,
                         Py_ssize_t index, int *out) {
    long v;
    if (Py_IS_TYPE(item, &PyLong_Type) && compact_long(item, &v) && v >= low && v <= high) {
        *out = (int)v;
        return 0;
    }
    return int_in_checked(item, low, high, what, index, out);
}

/* The interpreter's int objects 0..7, kept from import on: a count that is one of them is
 * read by its identity (ints are immutable), the common case, since CPython shares its small
 * ints; any other object is read and checked by int_in. */
static PyObject *small_ints[MAX_JOKERS + 1];

/* A count of at most high (at most MAX_JOKERS), as int_in(item, 0, high, ...). */
static inline int count_in(PyObject *item, int high, const char *what, Py_ssize_t index,
                           int *out) {
    for (int v = 0; v <= high; v++) {
        if (item == small_ints[v]) {
            *out = v;
            return 0;
        }
    }
    return int_in(item, 0, high, what, index, out);
}

/* The groups met so far, by group key (kind, place, mask, jokers), each its options. */
typedef struct {
    uint32_t key_plus_one;     /* 0: a free slot */
    Py_ssize_t n;
    Option *options;
    PyObject *melds;           /* its melds as Python tuples (candidate_melds), or NULL */
} Group;

#define GROUP_LIMIT 200000     /* the cache is emptied past it, as hand_melds' caches are */
static Group *groups = NULL;
static size_t groups_size = 0; /* a power of two */
static size_t groups_used = 0;
static int groups_held = 0;    /* while a search reads groups' options, none is emptied */

static void groups_clear(void) {
    for (size_t i = 0; i < groups_size; i++) {
        PyMem_Free(groups[i].options);
        Py_XDECREF(groups[i].melds);
    }
    PyMem_Free(groups);
    groups = NULL;
    groups_size = groups_used = 0;
}

static size_t group_slot(uint32_t key, size_t size) {
    return (size_t)((key * 0x9E3779B1u) ^ (key >> 15)) & (size - 1);
}

static int groups_grow(void) {
    size_t size = groups_size ? groups_size * 2 : 1024;
    Group *fresh = PyMem_Calloc(size, sizeof(Group));
    if (fresh == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < groups_size; i++) {
        if (!groups[i].key_plus_one) continue;
        size_t j = group_slot(groups[i].key_plus_one, size);
        while (fresh[j].key_plus_one) j = (j + 1) & (size - 1);
        fresh[j] = groups[i];
    }
    PyMem_Free(groups);
    groups = fresh;
    groups_size = size;
    return 0;
}

/* A group's options as they are listed: a growing array. */
typedef struct {
    Option *options;
    Py_ssize_t n, size;
} Listing;

/* Append the meld of the real cards reals[0..n_reals) and used jokers, worth points, to
 * the listing: a sequence over the window of length positions from start (its jokers
 * standing for the window's cards not among reals), or with length 0 a set (its jokers
 * open). */
static int list_meld(Listing *out, const int *reals, int n_reals, int used, int points,
                     int start, int length) {
    if (out->n == out->size) {
        Py_ssize_t size = out->size ? out->size * 2 : 16;
        Option *grown = PyMem_Realloc(out->options, size * sizeof(Option));
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        out->options = grown;
        out->size = size;
    }
    Option *o = &out->options[out->n++];
    o->n_reals = n_reals;
    o->used = used;
    o->points = points;
    o->lost = value[CARDS] * used;
    o->low = CARDS;
    o->code_lo = o->code_hi = 0;
    o->start = (uint8_t)start;
    o->length = (uint8_t)length;
    for (int r = 0; r < n_reals; r++) {
        int c = reals[r], word;
        o->reals[r] = (uint8_t)c;
        o->lost += value[c];
        if (c < o->low) o->low = c;
        uint64_t bit = card_code(c, &word);
        if (word) o->code_hi += bit; else o->code_lo += bit;
    }
    return 0;
}

/* The next combination of k of n indices after idx (ascending), in itertools.combinations'
 * order; 0 after the last. */
static int next_combination(int *idx, int k, int n) {
    int i = k - 1;
    while (i >= 0 && idx[i] == n - k + i) i--;
    if (i < 0) return 0;
    idx[i]++;
    for (int j = i + 1; j < k; j++) idx[j] = idx[j - 1] + 1;
    return 1;
}

/* hand_melds._sets: the sets of rank position place from the held suits (mask), each
 * choice of two or more of them (in combinations' order) with 0, 1 or 2 open jokers, where
 * the set has 3 or 4 cards and jokers are at most half of it. */
static int list_sets(Listing *out, int place, int mask, int jokers) {
    int held[SUITS], n_held = 0;
    for (int s = 0; s < SUITS; s++)
        if (mask >> s & 1) held[n_held++] = s;
    for (int size = 2; size <= n_held; size++) {
        int idx[SUITS];
        for (int i = 0; i < size; i++) idx[i] = i;
        do {
            int reals[SUITS];
            int points = 0;
            for (int i = 0; i < size; i++) {
                reals[i] = held[idx[i]] * RANKS + place;
                points += value[reals[i]];
            }
            for (int j = 0; j <= jokers && size + j <= SUITS; j++) {
                int n = size + j;
                if (n >= 3 && j * 2 <= n &&
                    list_meld(out, reals, size, j, points + j * position_value[place], 0, 0) < 0)
                    return -1;
            }
        } while (next_combination(idx, size, n_held));
    }
    return 0;
}

/* The number of bits set in a mask (SWAR: no call to libgcc's popcount, which a build
 * for any x86-64 would make). */
static int bits(int mask) {
    unsigned int x = (unsigned int)mask;
    x -= x >> 1 & 0x55555555u;
    x = (x & 0x33333333u) + (x >> 2 & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (int)(x * 0x01010101u >> 24);
}

/* The positions of a window of length 1..13 from start 0..12, wrapping past the ace. */
static int window_mask(int start, int length) {
    int run = ((1 << length) - 1) << start;
    return (run | run >> RANKS) & ((1 << RANKS) - 1);
}

/* hand_melds._sequences, and with replace hand_melds._replaced_sequences: the sequences of
 * suit place from its held positions (mask) and jokers, each window of 3 to 13 positions
 * (13 only from the first; a window wraps past the ace) whose missing positions jokers fill,
 * at most half of it, by length then start; with replace, then each one's readings with k =
 * 1, 2, ... of its real cards also replaced by jokers (in combinations' order), while the
 * jokers stay at most half of it and at most those of the hand. */
static int list_sequences(Listing *out, int place, int mask, int jokers, int replace) {
    if (bits(mask) < 2) return 0;
    int starts[RANKS * RANKS], lengths[RANKS * RANKS], n_windows = 0;
    for (int length = 3; length <= RANKS; length++) {
        for (int start = 0; start < RANKS; start++) {
            if (length == RANKS && start) continue;
            int gaps = length - bits(window_mask(start, length) & mask);
            if (gaps <= jokers && gaps * 2 <= length) {
                starts[n_windows] = start;
                lengths[n_windows++] = length;
            }
        }
    }
    for (int pass = 0; pass < 1 + replace; pass++) {
        for (int w = 0; w < n_windows; w++) {
            int held[RANKS], n_held = 0, points = 0;
            for (int i = 0; i < lengths[w]; i++) {
                int card = place * RANKS + (starts[w] + i) % RANKS;
                points += value[card];
                if (mask >> (card % RANKS) & 1) held[n_held++] = card;
            }
            int gaps = lengths[w] - n_held;
            if (!pass) {
                if (list_meld(out, held, n_held, gaps, points, starts[w], lengths[w]) < 0)
                    return -1;
                continue;
            }
            int spare = (jokers < lengths[w] / 2 ? jokers : lengths[w] / 2) - gaps;
            for (int k = 1; k <= spare; k++) {
                int idx[RANKS];
                for (int i = 0; i < k; i++) idx[i] = i;
                do {
                    int reals[RANKS], n_reals = 0;
                    for (int i = 0, j = 0; i < n_held; i++) {
                        if (j < k && idx[j] == i) j++;
                        else reals[n_reals++] = held[i];
                    }
                    if (list_meld(out, reals, n_reals, gaps + k, points, starts[w], lengths[w]) < 0)
                        return -1;
                } while (next_combination(idx, k, n_held));
            }
        }
    }
    return 0;
}

/* The options of a group (kind 0: the sets of rank position place from the held suits
 * mask, 1: the sequences of suit place from its held positions mask, 2: those and their
 * readings with held cards replaced by jokers), listed the first time; NULL with an
 * exception set when memory runs out. */
static const Group *group_of(int kind, int place, int mask, int jokers) {
    uint32_t key_plus_one = ((((uint32_t)kind * 16 + (uint32_t)place) << 13 | (uint32_t)mask) << 3
                             | (uint32_t)jokers) + 1;
    if (groups_size) {
        size_t i = group_slot(key_plus_one, groups_size);
        while (groups[i].key_plus_one) {
            if (groups[i].key_plus_one == key_plus_one) return &groups[i];
            i = (i + 1) & (groups_size - 1);
        }
    }
    Listing listing = {NULL, 0, 0};
    int failed = kind == 0 ? list_sets(&listing, place, mask, jokers)
                           : list_sequences(&listing, place, mask, jokers, kind == 2);
    if (failed || ((groups_used + 1) * 2 > groups_size && groups_grow() < 0)) {
        PyMem_Free(listing.options);
        return NULL;
    }
    size_t i = group_slot(key_plus_one, groups_size);
    while (groups[i].key_plus_one) i = (i + 1) & (groups_size - 1);
    groups[i].key_plus_one = key_plus_one;
    groups[i].n = listing.n;
    groups[i].options = listing.options;
    groups[i].melds = NULL;
    groups_used++;
    return &groups[i];
}

static void search_dealloc(SearchObject *self) {
    PyMem_Free(self->options);
    PyMem_Free(self->memo);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A counts argument (53 ints: copies of each card, then the jokers) read into counts. */
static int read_counts(PyObject *arg, int *counts) {
    PyObject *fast = PySequence_Fast(arg, "counts must be a sequence of 53 ints");
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != SLOTS) {
        PyErr_Format(PyExc_ValueError, "counts must have %d items (copies of each card, then "
                     "the jokers), not %zd", SLOTS, PySequence_Fast_GET_SIZE(fast));
        Py_DECREF(fast);
        return -1;
    }
    /* Reading an int runs no Python code, so the list cannot change while it is read. */
    for (int k = 0; k < SLOTS; k++) {
        if (count_in(PySequence_Fast_GET_ITEM(fast, k), k < CARDS ? MAX_COPIES : MAX_JOKERS,
                     "count of card", k, &counts[k]) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

#define MAX_GROUPS 17          /* 13 ranks' sets and 4 suits' sequences */

static int build_search(SearchObject *self, const int *counts, int replace);

static int search_init(SearchObject *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"counts", "replace", NULL};
    PyObject *counts_arg;
    int replace = 0;
    int counts[SLOTS];
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|p", names, &counts_arg, &replace))
        return -1;
    if (self->options != NULL) {
        PyErr_SetString(PyExc_TypeError, "a Search is made once");
        return -1;
    }
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "configure() was not called");
        return -1;
    }
    if (read_counts(counts_arg, counts) < 0) return -1;
    return build_search(self, counts, replace);
}

/* Make self (options NULL, memo empty) a search over the melds of the hand counts (checked),
 * as HandSearch(counts, replace): 0, or -1 with an exception set. It may empty the groups
 * listed so far (their options are copied). */
static int build_search(SearchObject *self, const int *counts, int replace) {
    if (groups_used > GROUP_LIMIT && !groups_held) groups_clear();
    int jokers = counts[CARDS];
    int rank_masks[13] = {0}, suit_masks[4] = {0};
    for (int k = 0; k < CARDS; k++) {
        if (counts[k]) {
            rank_masks[k % 13] |= 1 << (k / 13);
            suit_masks[k / 13] |= 1 << (k % 13);
        }
    }
    /* The groups in hand_meld_groups' order: each rank's sets, then each suit's sequences. */
    const Option *group_options[MAX_GROUPS];
    Py_ssize_t group_sizes[MAX_GROUPS];
    int n_groups = 0;
    Py_ssize_t total = 0;
    for (int place = 0; place < 13 + 4; place++) {
        int is_set = place < 13;
        int mask = is_set ? rank_masks[place] : suit_masks[place - 13];
        if (is_set ? !(mask & (mask - 1)) : !mask) continue;
        int kind = is_set ? 0 : replace && jokers ? 2 : 1;
        int cap = is_set ? SET_JOKERS : SEQUENCE_JOKERS;
        const Group *group = group_of(kind, is_set ? place : place - 13, mask,
                                      jokers < cap ? jokers : cap);
        if (group == NULL) return -1;
        group_options[n_groups] = group->options;
        group_sizes[n_groups++] = group->n;
        total += group->n;
    }
    self->options = PyMem_Malloc((total ? total : 1) * sizeof(Option));
    if (self->options == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t fill[CARDS + 1] = {0};
    for (int g = 0; g < n_groups; g++)
        for (Py_ssize_t i = 0; i < group_sizes[g]; i++) fill[group_options[g][i].low + 1]++;
    for (int k = 0; k < CARDS; k++) fill[k + 1] += fill[k];
    memcpy(self->first, fill, sizeof(self->first));
    for (int g = 0; g < n_groups; g++) {
        for (Py_ssize_t i = 0; i < group_sizes[g]; i++) {
            const Option *o = &group_options[g][i];
            self->options[fill[o->low]++] = *o;
            for (int r = 0; r < o->n_reals; r++) self->live[o->reals[r]] = 1;
        }
    }
    /* Each card's options by points, most first, in their order among equals (a stable
     * insertion sort, as ReferenceSearch's list.sort). */
    for (int k = 0; k < CARDS; k++) {
        for (Py_ssize_t i = self->first[k] + 1; i < self->first[k + 1]; i++) {
            Option moved = self->options[i];
            Py_ssize_t j = i;
            while (j > self->first[k] && self->options[j - 1].points < moved.points) {
                self->options[j] = self->options[j - 1];
                j--;
            }
            self->options[j] = moved;
        }
    }
    return 0;
}

/* The value of the live cards of counts and of its jokers: the most a hand can meld. */
static int live_total(const SearchObject *self, const int *counts) {
    int total = value[CARDS] * counts[CARDS];
    for (int k = 0; k < CARDS; k++)
        if (self->live[k]) total += value[k] * counts[k];
    return total;
}

static int check_made(const SearchObject *self) {
    if (self->options == NULL) {
        PyErr_SetString(PyExc_TypeError, "Search.__init__ was not called");
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(reach_from_doc,
"reach_from(counts, need, leave) -> bool\n\n"
"Whether melds worth need points can be laid from counts (a part of the hand the search\n"
"was made for), keeping a card when leave: HandSearch.reach_from.");

static int reach_counts(SearchObject *self, int *counts, int need, int leave);

static PyObject *search_reach_from(SearchObject *self, PyObject *args) {
    PyObject *counts_arg, *need_arg, *leave_arg;
    int counts[SLOTS];
    int need;
    if (check_made(self) < 0) return NULL;
    if (!PyArg_ParseTuple(args, "OOO:reach_from", &counts_arg, &need_arg, &leave_arg))
        return NULL;
    if (int_in(need_arg, -BOUND, BOUND, "need", -1, &need) < 0) return NULL;
    int leave = PyObject_IsTrue(leave_arg);
    if (leave < 0 || read_counts(counts_arg, counts) < 0) return NULL;
    int ok = reach_counts(self, counts, need, leave);
    if (ok < 0) return NULL;
    return PyBool_FromLong(ok);
}

/* HandSearch.reach_from over checked counts (changed: cards in no option are dropped): 1, 0,
 * or -1 with an exception set. */
static int reach_counts(SearchObject *self, int *counts, int need, int leave) {
    if (need <= 0) {
        int held = 0;
        for (int k = 0; k < SLOTS; k++) held += counts[k];
        return !leave || held > 0;
    }
    int total = live_total(self, counts);
    if (total < need) return 0;
    int dropped = 0;
    uint64_t lo = 0, hi = 0;
    for (int k = 0; k < CARDS; k++) {
        if (!counts[k]) continue;
        if (self->live[k]) {
            int word;
            uint64_t bit = card_code(k, &word);
            if (word) hi += bit * (uint64_t)counts[k]; else lo += bit * (uint64_t)counts[k];
        } else {
            dropped = 1;
            counts[k] = 0;
        }
    }
    return reach(self, counts, 0, lo, hi, total, leave && !dropped, need);
}

PyDoc_STRVAR(live_value_doc,
"live_value(counts) -> int\n\n"
"The points of the cards of counts that are in some meld of the search's hand, and of its\n"
"jokers: no arrangement of counts is worth more.");

static PyObject *search_live_value(SearchObject *self, PyObject *counts_arg) {
    int counts[SLOTS];
    if (check_made(self) < 0 || read_counts(counts_arg, counts) < 0) return NULL;
    return PyLong_FromLong(live_total(self, counts));
}

static PyMethodDef search_methods[] = {
    {"reach_from", (PyCFunction)search_reach_from, METH_VARARGS, reach_from_doc},
    {"live_value", (PyCFunction)search_live_value, METH_O, live_value_doc},
    {NULL, NULL, 0, NULL},
};

PyDoc_STRVAR(search_doc,
"Search(counts, replace=False)\n\n"
"HandSearch's memoised search over the melds of the hand counts (53 ints: copies of each\n"
"card, then the jokers; a joker for a held card only with replace, joker_for_held).");

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "konkun.kunken.hand_search.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_dealloc = (destructor)search_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = search_doc,
    .tp_methods = search_methods,
    .tp_init = (initproc)search_init,
    .tp_new = PyType_GenericNew,
};

/* A sequence of n ints, each in 0..SMALL, read into out (what names it in errors). */
static int read_values(PyObject *arg, int n, const char *what, int *out) {
    PyObject *fast = PySequence_Fast(arg, "values must be sequences of ints");
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s must have %d items, not %zd", what, n,
                     PySequence_Fast_GET_SIZE(fast));
        Py_DECREF(fast);
        return -1;
    }
    for (int k = 0; k < n; k++) {
        if (int_in(PySequence_Fast_GET_ITEM(fast, k), 0, SMALL, what, k, &out[k]) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

PyDoc_STRVAR(configure_doc,
"configure(values, position_values)\n\n"
"values: each card's points in hand (53 ints, the joker last); position_values: the points\n"
"of an open set joker of each rank position (13 ints). Forgets the groups listed so far.");

static PyObject *configure(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *values_arg, *positions_arg;
    int read[SLOTS], read_positions[RANKS];
    if (!PyArg_ParseTuple(args, "OO:configure", &values_arg, &positions_arg)) return NULL;
    if (read_values(values_arg, SLOTS, "values", read) < 0
        || read_values(positions_arg, RANKS, "position_values", read_positions) < 0)
        return NULL;
    memcpy(value, read, sizeof(value));
    memcpy(position_value, read_positions, sizeof(position_value));
    configured = 1;
    groups_clear();
    Py_RETURN_NONE;
}

/* A tuple of the n ints of items. */
static PyObject *int_tuple(const uint8_t *items, int n) {
    PyObject *out = PyTuple_New(n);
    if (out == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *item = PyLong_FromLong(items[i]);
        if (item == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, item);
    }
    return out;
}

PyDoc_STRVAR(group_options_doc,
"group_options(kind, place, mask, jokers) -> tuple\n\n"
"The options a search lists for one group of melds (hand_melds.meld_group of the same\n"
"arguments; jokers at most 2 for sets, 6 for sequences), each (lowest card, (real cards,\n"
"jokers, points, value)): arrangement.group_options without the hand code.");

static PyObject *group_options(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *kind_arg, *place_arg, *mask_arg, *jokers_arg;
    int kind, place, mask, jokers;
    if (!PyArg_ParseTuple(args, "OOOO:group_options", &kind_arg, &place_arg, &mask_arg,
                          &jokers_arg))
        return NULL;
    if (int_in(kind_arg, 0, 2, "kind", -1, &kind) < 0) return NULL;
    int is_set = kind == 0;
    if (int_in(place_arg, 0, is_set ? RANKS - 1 : SUITS - 1, "place", -1, &place) < 0
        || int_in(mask_arg, 0, is_set ? (1 << SUITS) - 1 : (1 << RANKS) - 1, "mask", -1,
                  &mask) < 0
        || int_in(jokers_arg, 0, is_set ? SET_JOKERS : SEQUENCE_JOKERS, "jokers", -1,
                  &jokers) < 0)
        return NULL;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "configure() was not called");
        return NULL;
    }
    const Group *group = group_of(kind, place, mask, jokers);
    if (group == NULL) return NULL;
    PyObject *out = PyTuple_New(group->n);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < group->n; i++) {
        const Option *o = &group->options[i];
        PyObject *reals = int_tuple(o->reals, o->n_reals);
        PyObject *pair = reals == NULL ? NULL
            : Py_BuildValue("(i(Niii))", o->low, reals, o->used, o->points, o->lost);
        if (pair == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, pair);
    }
    return out;
}

/* ------------------------------------------------------------------ the completion judge
 *
 * completion.completable (the exact completion check of a take turn) runs here: its
 * necessary and sufficient checks (the third-card room with every table joker won, the
 * points bound, whether any swap is left), its memo, and the rule that a state revisited on
 * its own path completes nothing new, melds alone (solver.can_complete), and the swaps-only
 * case of a taken card, a joker too (completion.third_card_by_swaps: the walk over every
 * choice of swaps, which swap_third_length() also gives the take scan and the legal lists).
 * Where they do not decide, it asks the Python search over steps configure_judge() gave it
 * (completion.search_completion), which asks this judge again of the states it reaches. completion's reference_completable and reference_swap_third_length are the same
 * in Python; the tests compare both. */

#define MAX_TABLE 64           /* melds on the table: two decks make at most 36 */
#define TABLE_ROOM (MAX_TABLE + 56)  /* and those a search lays: a meld takes 3 of at most
                                      * 163 cards */
#define MEMO_LIMIT 200000      /* the memo is emptied past it, as the reference's */
#define FULL ((1 << RANKS) - 1)
#define KEY_HEAD (2 * SLOTS + 7)

static PyObject *search_steps = NULL;
static PyObject *judge_memo = NULL;        /* bytes key -> True/False */

typedef struct {
    int kind;                  /* 0 a sequence, 1 a set */
    int a, b, c, d;            /* (suit, start, length, joker mask) or (rank, real, decl, open) */
} Compact;

static int bit_length(unsigned int x) {
    return x ? 32 - __builtin_clz(x) : 0;
}

/* third_card._run_third: the shortest sequence without jokers holding position 0 and two
 * old cards, the masks turned so that the card is at position 0; 0 when none. */
static int run_third(int old, int pool) {
    int right, left;
    if (pool == FULL) {
        right = left = 12;
    } else {
        unsigned int gaps = (unsigned int)(~pool & FULL);
        right = bit_length(gaps & (0u - gaps)) - 2;
        left = 12 - (bit_length(gaps) - 1);
    }
    /* the nearest two old cards at distances 1..right (right of the card) and 1..left (left
     * of it, position 13 - d at distance d) */
    unsigned int r = right > 0 ? (unsigned int)old & ((2u << right) - 2) : 0;
    unsigned int l = left > 0 ? (unsigned int)old & FULL & ~((1u << (13 - left)) - 1) : 0;
    int r1 = r ? __builtin_ctz(r) : 0;
    r &= r - 1;
    int r2 = r ? __builtin_ctz(r) : 0;
    int l1 = l ? 14 - bit_length(l) : 0;
    if (l) l &= ~(1u << (bit_length(l) - 1));
    int l2 = l ? 14 - bit_length(l) : 0;
    int lengths[3] = {r2 ? r2 + 1 : 0, l2 ? l2 + 1 : 0,
                      l1 && r1 && l1 + r1 < 13 ? l1 + r1 + 1 : 0};
    int best = 0;
    for (int i = 0; i < 3; i++)
        if (lengths[i] && (!best || lengths[i] < best)) best = lengths[i];
    return best;
}

/* third_card._sequence_third: the shortest sequence holding position 0 and two old cards
 * (or old jokers), the windows holding position 0 by length, then start. */
static int sequence_third(int old, int pool, int jokers, int old_jokers, int proxies) {
    int missing = FULL & ~pool;
    int held_new = pool & ~old & ~1;
    for (int length = 3; length <= RANKS; length++) {
        /* the windows holding position 0: from 0, then those wrapping past the ace */
        for (int start = 0; start < (length < RANKS ? RANKS : 1);
             start = start ? start + 1 : RANKS + 1 - length) {
            int wmask = window_mask(start, length);
            int gaps = bits(wmask & missing);
            if (gaps > jokers || gaps * 2 > length) continue;
            int room = gaps;
            if (proxies) {
                int extra = bits(wmask & held_new);
                if (length / 2 - gaps < extra) extra = length / 2 - gaps;
                if (jokers - gaps < extra) extra = jokers - gaps;
                room += extra;
            }
            if (bits(wmask & old) + (room < old_jokers ? room : old_jokers) >= 2) return length;
        }
    }
    return 0;
}

/* The lengths sequence_third found, by its arguments (a pure function: kept across calls),
 * each slot (1 << 63 | key << 4 | length) the last one stored there; 0: none. */
#define THIRD_SLOTS 4096
static uint64_t third_lengths[THIRD_SLOTS];

/* sequence_third (jokers 1..6, old_jokers -7..2), by its memo. */
static int sequence_third_known(int old, int pool, int jokers, int old_jokers, int proxies) {
    uint64_t key = (uint64_t)old | (uint64_t)pool << 13 | (uint64_t)jokers << 26
        | (uint64_t)(old_jokers + 8) << 29 | (uint64_t)(proxies != 0) << 33;
    uint64_t *slot = &third_lengths[(key * 0x9E3779B97F4A7C15ull) >> 52];
    if (*slot >> 4 == (1ull << 59 | key)) return (int)(*slot & 15);
    int length = sequence_third(old, pool, jokers, old_jokers, proxies);
    *slot = 1ull << 63 | key << 4 | (uint64_t)length;
    return length;
}

/* third_card.shortest_third, from masks of 13 bits (suit) and 4 bits (rank). */
static int shortest_third(int p, int s, int jokers, int old_jokers, int old_suit, int old_rank,
                          int pool_suit, int pool_rank, int proxies) {
    int a = bits(old_rank & ~(1 << s));
    if (a >= 2 || (a == 1 && old_jokers >= 1)) return 3;
    int best = old_jokers >= 2 && (pool_rank & ~(1 << s)) ? 4 : 0;
    int old = old_suit & ~(1 << p);
    if ((old == 0 && old_jokers < 2) || ((old & (old - 1)) == 0 && !old_jokers)) return best;
    old = ((old >> p) | (old << (13 - p))) & FULL;
    int pool = ((pool_suit >> p) | (pool_suit << (13 - p))) & FULL;
    int seq;
    if (!jokers) {
        seq = run_third(old, pool);
    } else {  /* the reference's memo key caps them: the same values reach its search */
        int capped = jokers < 6 ? jokers : 6, old_capped = old_jokers < 2 ? old_jokers : 2;
        int proxied = proxies && old_jokers > 0;
        seq = capped > 0 && old_capped >= -7   /* (else only shortest_third_py's arguments) */
            ? sequence_third_known(old, pool, capped, old_capped, proxied)
            : sequence_third(old, pool, capped, old_capped, proxied);
    }
    return seq && (!best || seq < best) ? seq : best;
}

/* The number of jokers on meld m (completion._table_jokers of one meld). */
static int meld_jokers(const Compact *m) {
    return m->kind == 0 ? bits(m->d) : bits(m->c) + m->d;
}

/* Whether some card the hand holds wins a joker of m (completion.swap_cards). */
static int meld_swappable(const Compact *m, const int *hand) {
    if (m->kind == 0) {
        for (int q = 0; q < RANKS; q++)
            if (m->d >> q & 1 && hand[m->a * RANKS + q]) return 1;
        return 0;
    }
    for (int t = 0; t < SUITS; t++)
        if ((m->c >> t & 1 || (m->d && !((m->b | m->c) >> t & 1))) && hand[t * RANKS + m->a])
            return 1;
    return 0;
}

/* Marks in winning the cards that win a joker of m (completion.swap_cards; as
 * meld_swappable reads them). */
static void meld_winners(const Compact *m, char *winning) {
    if (m->kind == 0) {
        for (int q = 0; q < RANKS; q++)
            if (m->d >> q & 1) winning[m->a * RANKS + q] = 1;
        return;
    }
    for (int t = 0; t < SUITS; t++)
        if (m->c >> t & 1 || (m->d && !((m->b | m->c) >> t & 1))) winning[t * RANKS + m->a] = 1;
}

static int any_swap(const Compact *table, int n, const int *hand) {
    for (int i = 0; i < n; i++)
        if (meld_swappable(&table[i], hand)) return 1;
    return 0;
}

/* A meld's place in a memo key: distinct melds, distinct codes. */
static uint32_t meld_code(const Compact *m) {
    return (uint32_t)m->kind << 31 | (uint32_t)m->a << 26 | (uint32_t)m->b << 21
        | (uint32_t)m->c << 16 | (uint32_t)m->d;
}

/* third_card.third_card_length of a card that is not a joker (proxies: joker_for_held), with
 * extra jokers more in the hand, neither old nor taken. */
static int card_third(const int *hand, const int *notold, int card, int extra, int proxies) {
    if (!hand[card]) return 0;
    int p = card % RANKS, s = card / RANKS;
    int old_suit = 0, pool_suit = 0, old_rank = 0, pool_rank = 0;
    for (int q = 0; q < RANKS; q++) {
        int k = s * RANKS + q;
        if (hand[k]) {
            pool_suit |= 1 << q;
            if (hand[k] > notold[k]) old_suit |= 1 << q;
        }
    }
    for (int t = 0; t < SUITS; t++) {
        int k = t * RANKS + p;
        if (hand[k]) {
            pool_rank |= 1 << t;
            if (hand[k] > notold[k]) old_rank |= 1 << t;
        }
    }
    return shortest_third(p, s, hand[CARDS] + extra, hand[CARDS] - notold[CARDS], old_suit,
                          old_rank, pool_suit, pool_rank, proxies);
}

static int joker_third(const int *old_suit, const int *pool_suit, const int *old_rank,
                       const int *pool_rank, int jokers, int old_jokers, int proxies,
                       int below);
static void counts_masks(const int *counts, int *suit_masks, int *rank_masks);

/* third_card.third_card_length of the taken card (52: a joker, third_card._joker_third over
 * the hand's masks, all but one joker counted old up to the old ones; else card_third). */
static int third_length(const int *hand, const int *notold, int card, int proxies) {
    if (card != CARDS) return card_third(hand, notold, card, 0, proxies);
    if (!hand[CARDS]) return 0;
    int old[CARDS], old_suit[SUITS], old_rank[RANKS], pool_suit[SUITS], pool_rank[RANKS];
    for (int k = 0; k < CARDS; k++) old[k] = hand[k] > notold[k];
    counts_masks(old, old_suit, old_rank);
    counts_masks(hand, pool_suit, pool_rank);
    int jokers = hand[CARDS], old_jokers = jokers - notold[CARDS];
    return joker_third(old_suit, pool_suit, old_rank, pool_rank, jokers,
                       old_jokers < jokers - 1 ? old_jokers : jokers - 1, proxies, RANKS + 1);
}

/* completion._third_card_possible: room for the taken card's meld with two old cards, every
 * table joker counted as one that might be won. */
static int third_card_possible(const int *hand, const int *notold, int card, int size,
                               const Compact *table, int n) {
    if (card == CARDS) return 1;
    int extra = 0;
    for (int i = 0; i < n; i++) extra += meld_jokers(&table[i]);
    int shortest = card_third(hand, notold, card, extra, 1);
    return 0 < shortest && shortest < size;
}

/* completion.swaps of one card: the card that wins a joker of m at place j (a sequence's
 * rank, a set's suit), with m after the swap into after; -1 when no card wins one there. */
static int swap_meld(const Compact *m, int j, Compact *after) {
    *after = *m;
    if (m->kind == 0) {     /* a sequence's joker, by its card */
        if (!(m->d >> j & 1)) return -1;
        after->d = m->d & ~(1 << j);
        return m->a * RANKS + j;
    }
    int bit = 1 << j;       /* a set's: a declared suit, or an open joker's */
    if (m->c & bit) {
        after->b = m->b | bit;
        after->c = m->c & ~bit;
    } else if (m->d && !((m->b | m->c) & bit)) {
        after->b = m->b | bit;
        after->d = m->d - 1;
    } else {
        return -1;
    }
    return j * RANKS + m->a;
}

/* The states one swap walk has met, each by its key (swap_walk's): an open-addressed set
 * whose slots hold the walk's stamp when taken in this walk, so that a new walk empties it
 * by taking the next stamp; it grows to stay at most half full. */
static uint64_t *walk_keys = NULL;
static uint32_t *walk_stamps = NULL;
static size_t walk_size = 0;       /* a power of two */
static size_t walk_used = 0;
static uint32_t walk_stamp = 0;

static size_t walk_slot(uint64_t key, size_t size) {
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (size - 1);
}

/* Start a new walk's set of states met. */
static void walk_begin(void) {
    if (++walk_stamp == 0) {       /* the stamps wrapped: every slot is free again */
        if (walk_stamps != NULL) memset(walk_stamps, 0, walk_size * sizeof(uint32_t));
        walk_stamp = 1;
    }
    walk_used = 0;
}

/* The set twice as large (or made), this walk's states kept. 0, or -1 with an exception. */
static int walk_grow(void) {
    size_t size = walk_size ? 2 * walk_size : 1024;
    uint64_t *keys = PyMem_Malloc(size * sizeof(uint64_t));
    uint32_t *stamps = PyMem_Calloc(size, sizeof(uint32_t));
    if (keys == NULL || stamps == NULL) {
        PyMem_Free(keys);
        PyMem_Free(stamps);
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < walk_size; i++) {
        if (walk_stamps[i] != walk_stamp) continue;
        size_t slot = walk_slot(walk_keys[i], size);
        while (stamps[slot] == walk_stamp) slot = (slot + 1) & (size - 1);
        stamps[slot] = walk_stamp;
        keys[slot] = walk_keys[i];
    }
    PyMem_Free(walk_keys);
    PyMem_Free(walk_stamps);
    walk_keys = keys;
    walk_stamps = stamps;
    walk_size = size;
    return 0;
}

/* Whether this walk met the state of key before (1), else marks it met (0); -1 with an
 * exception set. */
static int walk_met(uint64_t key) {
    if (2 * (walk_used + 1) > walk_size && walk_grow() < 0) return -1;
    size_t slot = walk_slot(key, walk_size);
    while (walk_stamps[slot] == walk_stamp) {
        if (walk_keys[slot] == key) return 1;
        slot = (slot + 1) & (walk_size - 1);
    }
    walk_stamps[slot] = walk_stamp;
    walk_keys[slot] = key;
    walk_used++;
    return 0;
}

/* The walk of completion._swap_states over every choice of swaps with the melds from start
 * on (each hand and table met once), in its order, for the taken card (a joker too): the
 * shortest third-card meld of the states it reaches (0: none) into best, stopping early once
 * one is shorter than enough. A state is the walk's first hand and table with the
 * swaps made (the table's melds after them name the cards given): key has one bit per swap
 * that can be made, at base[i] on for meld i (a sequence's jokers in order, a set's suits),
 * set when made. 0, or -1 with an error set. */
static int swap_walk(int *hand, int *notold, Compact *table, int n, int start, int card,
                     const int *base, uint64_t key, int enough, int *best) {
    for (int i = start; i < n; i++) {
        Compact *m = &table[i];
        if (!meld_jokers(m)) continue;
        const Compact before = *m;
        /* a sequence's jokers by position (its bits in the key in that order), a set's suits */
        int places = m->kind == 0 ? m->d : (1 << SUITS) - 1;
        for (int rest = places; rest; rest &= rest - 1) {
            int j = __builtin_ctz((unsigned int)rest);
            Compact after;
            int given = swap_meld(&before, j, &after);
            if (given < 0 || !hand[given]) continue;
            int bit = base[i] + (m->kind == 0 ? bits(base[n + i] & ((1 << j) - 1)) : j);
            int met = walk_met(key | (uint64_t)1 << bit);
            if (met < 0) return -1;
            if (met) continue;
            *m = after;
            int had_notold = notold[given];
            hand[given]--;
            if (had_notold) notold[given]--;
            hand[CARDS]++;
            notold[CARDS]++;
            int length = third_length(hand, notold, card, 1), status = 0;
            if (length && (!*best || length < *best)) *best = length;
            if (!(*best && *best < enough))
                status = swap_walk(hand, notold, table, n, i, card, base,
                                   key | (uint64_t)1 << bit, enough, best);
            hand[given]++;
            if (had_notold) notold[given]++;
            hand[CARDS]--;
            notold[CARDS]--;
            *m = before;
            if (status < 0) return -1;
            if (*best && *best < enough) return 0;
        }
    }
    return 0;
}

/* The shortest third-card meld over the swap states (completion._swap_states, the hand as it
 * is not among them) into best, as swap_walk, or (stop > 0) only whether one is shorter
 * than stop. No state's is shorter than the bound of completion._third_card_possible (every
 * table joker won, cards only leaving the hand: for a card, not a joker) nor than 3: the
 * walk is not made when that bound shows none is shorter than best or stop, and it stops
 * at a meld as short as the bound. 0, or -1 with an error set. */
static int swap_states_third(const int *hand_in, const int *notold_in, const Compact *table_in,
                             int n, int card, int stop, int *best) {
    int lowest = 3;
    if (card != CARDS) {
        int extra = 0;
        for (int i = 0; i < n; i++) extra += meld_jokers(&table_in[i]);
        lowest = card_third(hand_in, notold_in, card, extra, 1);
        if (!lowest || (stop && lowest >= stop) || (*best && *best <= lowest)) return 0;
    }
    int enough = stop > lowest + 1 ? stop : lowest + 1;
    int hand[SLOTS], notold[SLOTS], base[2 * TABLE_ROOM], width = 0;
    Compact table[TABLE_ROOM];
    memcpy(hand, hand_in, sizeof(hand));
    memcpy(notold, notold_in, sizeof(notold));
    memcpy(table, table_in, sizeof(Compact) * (size_t)n);
    for (int i = 0; i < n; i++) {   /* each meld's bits in a state's key, and its jokers */
        const Compact *m = &table[i];
        base[i] = width;
        base[n + i] = m->kind == 0 ? m->d : 0;
        width += m->kind == 0 ? bits(m->d) : meld_jokers(m) ? SUITS : 0;
    }
    if (width > 64) {
        PyErr_Format(PyExc_ValueError, "the table's jokers allow %d swaps, more than 64",
                     width);
        return -1;
    }
    walk_begin();
    return swap_walk(hand, notold, table, n, 0, card, base, 0, enough, best);
}

/* completion._points_bound minus completion._lowest. */
static long points_margin(const int *hand, const Compact *table, int n) {
    long total = 0;
    int lowest = 10;
    for (int k = 0; k < SLOTS; k++) {
        total += (long)value[k] * hand[k];
        if (k < CARDS && hand[k] && value[k] == 5) lowest = 5;
    }
    for (int i = 0; i < n; i++) total += 10L * meld_jokers(&table[i]);
    return total - lowest;
}

/* Whether the jokers of the hand (with extra more, a bank's) and of the table's n melds fit
 * what the C core reads: at most MAX_JOKERS, however many of them swaps win into the hand
 * (a pack has 4). 0, or -1 with a ValueError naming them. */
static int jokers_fit(const int *hand, int extra, const Compact *table, int n) {
    int jokers = hand[CARDS] + extra;
    for (int i = 0; i < n; i++) jokers += meld_jokers(&table[i]);
    if (jokers <= MAX_JOKERS) return 0;
    PyErr_Format(PyExc_ValueError, "hand and table hold %d jokers, more than %d", jokers,
                 MAX_JOKERS);
    return -1;
}

static int code_order(const void *x, const void *y) {
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

/* A table argument: a tuple of compact melds (5-tuples of ints) read into table. */
static int read_table(PyObject *arg, Compact *table, int *n) {
    if (!PyTuple_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "table must be a tuple of compact melds, not %.100s",
                     Py_TYPE(arg)->tp_name);
        return -1;
    }
    Py_ssize_t size = PyTuple_GET_SIZE(arg);
    if (size > MAX_TABLE) {
        PyErr_Format(PyExc_ValueError, "table has %zd melds, more than %d", size, MAX_TABLE);
        return -1;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *m = PyTuple_GET_ITEM(arg, i);
        if (!PyTuple_Check(m) || PyTuple_GET_SIZE(m) != 5) {
            PyErr_Format(PyExc_ValueError, "table meld %zd is %R, not a compact meld "
                         "(a tuple of 5 ints)", i, m);
            return -1;
        }
        Compact *c = &table[i];
        if (int_in(PyTuple_GET_ITEM(m, 0), 0, 1, "kind of table meld", i, &c->kind) < 0)
            return -1;
        int seq = c->kind == 0;
        /* a sequence: suit, start, length, joker positions; a set: rank, real suits,
         * declared joker suits, open jokers */
        if (int_in(PyTuple_GET_ITEM(m, 1), 0, seq ? SUITS - 1 : RANKS - 1,
                   seq ? "suit of table meld" : "rank of table meld", i, &c->a) < 0
            || int_in(PyTuple_GET_ITEM(m, 2), 0, seq ? RANKS - 1 : (1 << SUITS) - 1,
                      seq ? "start of table meld" : "real suits of table meld", i, &c->b) < 0
            || int_in(PyTuple_GET_ITEM(m, 3), seq ? 1 : 0, seq ? RANKS : (1 << SUITS) - 1,
                      seq ? "length of table meld" : "joker suits of table meld", i, &c->c) < 0
            || int_in(PyTuple_GET_ITEM(m, 4), 0, seq ? FULL : SUITS,
                      seq ? "joker positions of table meld" : "open jokers of table meld", i,
                      &c->d) < 0)
            return -1;
    }
    *n = (int)size;
    return 0;
}

/* A hand argument (or the cards of it not held before the take): a list of 53 counts. */
static int read_hand(PyObject *arg, const char *what, int *counts) {
    if (!PyList_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "%s must be a list of 53 counts, not %.100s", what,
                     Py_TYPE(arg)->tp_name);
        return -1;
    }
    if (PyList_GET_SIZE(arg) != SLOTS) {
        PyErr_Format(PyExc_ValueError, "%s must have %d counts, not %zd", what, SLOTS,
                     PyList_GET_SIZE(arg));
        return -1;
    }
    /* Reading an int runs no Python code, so the list cannot change while it is read. */
    for (int k = 0; k < SLOTS; k++) {
        if (count_in(PyList_GET_ITEM(arg, k), k < CARDS ? MAX_COPIES : MAX_JOKERS, what, k,
                     &counts[k]) < 0)
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ melds alone
 * solver.can_complete (its reference, solver.reference_can_complete): whether a take turn
 * can still be completed by laying melds from the hand alone, no swaps with the table. The
 * taken card's melds are the options of the C listing that hold it (hand_melds.melds_with:
 * a rank's sets and a suit's sequences, with the readings of joker_for_held) and hold two
 * cards held before the take (third_card.is_third_card_meld). */

#define MELD_GROUPS 17         /* at most 13 ranks' sets and 4 suits' sequences */

/* The options of the groups hand_melds.melds_with(card, counts, replace) reads (every
 * group for a taken joker, else the card's rank's sets and its suit's sequences) into
 * options and sizes: how many groups, or -1 with an exception set. The options stay valid
 * until a search is built (build_search may empty the groups). */
static int card_groups(const int *counts, int card, int replace, const Option **options,
                       Py_ssize_t *sizes) {
    int jokers = counts[CARDS], n = 0;
    int rank_masks[RANKS] = {0}, suit_masks[SUITS] = {0};
    for (int k = 0; k < CARDS; k++) {
        if (counts[k]) {
            rank_masks[k % RANKS] |= 1 << (k / RANKS);
            suit_masks[k / RANKS] |= 1 << (k % RANKS);
        }
    }
    for (int place = 0; place < RANKS + SUITS; place++) {
        int is_set = place < RANKS;
        int at = is_set ? place : place - RANKS;
        if (card != CARDS && at != (is_set ? card % RANKS : card / RANKS)) continue;
        int mask = is_set ? rank_masks[at] : suit_masks[at];
        if (is_set ? !(mask & (mask - 1)) : !mask) continue;
        int cap = is_set ? SET_JOKERS : SEQUENCE_JOKERS;
        const Group *group = group_of(is_set ? 0 : replace && jokers ? 2 : 1, at, mask,
                                      jokers < cap ? jokers : cap);
        if (group == NULL) return -1;
        options[n] = group->options;
        sizes[n++] = group->n;
    }
    return n;
}

/* third_card.is_third_card_meld of option o for the taken card (52: a joker), laid from
 * counts (taken: its cards not held before the take); o holds the card (card_groups). */
static int is_third(const Option *o, int card, const int *counts, const int *taken) {
    int jokers = o->used, old = 0;
    int has_card = card == CARDS;
    for (int r = 0; r < o->n_reals; r++) {
        int c = o->reals[r];
        if (c == card) has_card = 1;
        else if (counts[c] > taken[c]) old++;
    }
    int old_jokers = counts[CARDS] - taken[CARDS];
    if (card == CARDS) {
        if (!jokers) return 0;
        jokers--;             /* the taken joker itself */
        if (counts[CARDS] - 1 < old_jokers) old_jokers = counts[CARDS] - 1;
    } else if (!has_card) {
        return 0;
    }
    if (jokers > old_jokers) jokers = old_jokers;
    return old + (jokers > 0 ? jokers : 0) >= 2;
}

/* solver.won_back's choices for option o: per joker the cards that win it (a sequence's:
 * the card it stands for; a set's open jokers: the suits of its rank no real card holds),
 * into winners (up to SUITS each) and counts; how many jokers. */
static int joker_winners(const Option *o, int winners[][SUITS], int *n_winners) {
    int n = 0;
    if (o->length) {
        int suit = o->reals[0] / RANKS;
        for (int i = 0; i < o->length; i++) {
            int c = suit * RANKS + (o->start + i) % RANKS, r;
            for (r = 0; r < o->n_reals && o->reals[r] != c; r++) {}
            if (r == o->n_reals) {
                winners[n][0] = c;
                n_winners[n++] = 1;
            }
        }
        return n;
    }
    int rank = o->reals[0] % RANKS, present = 0;
    for (int r = 0; r < o->n_reals; r++) present |= 1 << (o->reals[r] / RANKS);
    for (int j = 0; j < o->used; j++) {
        n_winners[n] = 0;
        for (int t = 0; t < SUITS; t++)
            if (!(present >> t & 1)) winners[n][n_winners[n]++] = t * RANKS + rank;
        n++;
    }
    return n;
}

/* solver._choose_won_back with the search's question asked of each hand it reaches: whether
 * some non-empty choice of the jokers' winners from i on (each card given once: given),
 * each given for a joker, leaves hand able to lay melds worth need keeping a card. hand is
 * restored. 1, 0, or -1 with an exception set. */
static int won_back_reaches(SearchObject *search, int winners[][SUITS], const int *n_winners,
                            int n, int i, uint64_t given, int *hand, int need) {
    if (i == n) {
        if (!given) return 0;
        int copy[SLOTS];
        memcpy(copy, hand, sizeof(copy));
        return reach_counts(search, copy, need, 1);
    }
    int ok = won_back_reaches(search, winners, n_winners, n, i + 1, given, hand, need);
    for (int w = 0; w < n_winners[i] && !ok; w++) {
        int c = winners[i][w];
        if (!hand[c] || given >> c & 1) continue;
        hand[c]--;
        hand[CARDS]++;
        ok = won_back_reaches(search, winners, n_winners, n, i + 1, given | (uint64_t)1 << c,
                              hand, need);
        hand[c]++;
        hand[CARDS]--;
    }
    return ok;
}

/* solver.can_complete over checked counts: search (NULL: one is built for counts when
 * needed) as its search; size < 0: the hand's. 1, 0, or -1 with an exception set. */
static int melds_complete(SearchObject *search, const int *counts, const int *taken,
                          int card, int need, int pending, int size, int checked,
                          int replace) {
    if (size < 0) {
        size = 0;
        for (int k = 0; k < SLOTS; k++) size += counts[k];
    }
    if (!pending && need <= 0) return size >= 1;
    if (pending && (!counts[card] || (!checked && card != CARDS
                                      && !card_third(counts, taken, card, 0, replace))))
        return 0;   /* (a taken joker: no third-card meld lists none below) */
    SearchObject made;
    int built = 0;
    if (search == NULL && need > 0) {
        /* built first: building may empty the groups whose options are read below */
        memset(&made, 0, sizeof(made));
        if (build_search(&made, counts, replace) < 0) {
            PyMem_Free(made.options);
            return -1;
        }
        search = &made;
        built = 1;
    }
    int work[SLOTS];
    memcpy(work, counts, sizeof(work));
    int ok = 0;
    if (!pending) {
        ok = reach_counts(search, work, need, 1);
    } else {
        const Option *options[MELD_GROUPS];
        Py_ssize_t sizes[MELD_GROUPS];
        int n = card_groups(counts, card, replace, options, sizes);
        if (n < 0) ok = -1;
        /* any of the taken card's melds worth the points leaving a card, then the rest */
        for (int pass = 0; pass < 2 && !ok; pass++) {
            if (pass && need <= 0) break;
            for (int g = 0; g < n && !ok; g++) {
                for (Py_ssize_t i = 0; i < sizes[g] && !ok; i++) {
                    const Option *o = &options[g][i];
                    if (o->n_reals + o->used >= size || (card == CARDS && !o->used)
                        || !is_third(o, card, counts, taken))
                        continue;
                    if (!pass) {
                        ok = need - o->points <= 0;
                        continue;
                    }
                    for (int r = 0; r < o->n_reals; r++) work[o->reals[r]]--;
                    work[CARDS] -= o->used;
                    int rest[SLOTS];
                    memcpy(rest, work, sizeof(rest));
                    ok = reach_counts(search, rest, need - o->points, 1);
                    if (!ok && replace) {
                        int winners[MAX_REALS][SUITS], n_winners[MAX_REALS];
                        int jokers = joker_winners(o, winners, n_winners);
                        ok = won_back_reaches(search, winners, n_winners, jokers, 0, 0, work,
                                              need - o->points);
                    }
                    for (int r = 0; r < o->n_reals; r++) work[o->reals[r]]++;
                    work[CARDS] += o->used;
                }
            }
        }
    }
    if (built) {
        PyMem_Free(made.options);
        PyMem_Free(made.memo);
    }
    return ok;
}

typedef struct {
    PyObject *hand_arg, *notold_arg, *table_arg;
    int hand[SLOTS], notold[SLOTS];
    int card, need, pending, layout, replace;
    Compact table[TABLE_ROOM];
    int n;
} Turn;

/* A call of one of the Python parts configure_judge() gave (held while it runs, so that a
 * configure_judge() meanwhile cannot free it), its positional arguments built by format. */
static PyObject *call_part(PyObject *part, const char *format, ...) {
    va_list args;
    va_start(args, format);
    PyObject *tuple = Py_VaBuildValue(format, args);
    va_end(args);
    if (tuple == NULL) return NULL;
    Py_INCREF(part);
    PyObject *result = PyObject_Call(part, tuple, NULL);
    Py_DECREF(part);
    Py_DECREF(tuple);
    return result;
}

/* The answer of a Python judge (1, 0, or -1 with an error set) for result. */
static int truth_of(PyObject *result) {
    if (result == NULL) return -1;
    int ok = PyObject_IsTrue(result);
    Py_DECREF(result);
    return ok;
}

/* solver.can_complete (melds alone): with no points due and the taken card, not a joker,
 * still to be melded, whether its shortest meld with two old cards leaves a card
 * (third_card_length is the shortest of third_card_melds); else melds_complete. */
static int melds_alone(const Turn *t, int size) {
    if (t->pending && t->need <= 0 && t->card != CARDS) {
        int length = card_third(t->hand, t->notold, t->card, 0, t->replace);
        return 0 < length && length < size;
    }
    return melds_complete(NULL, t->hand, t->notold, t->card, t->need, t->pending, size, 0,
                          t->replace);
}

/* A list of the 53 counts (a new reference), or NULL with an exception set. */
static PyObject *counts_list(const int *counts) {
    PyObject *list = PyList_New(SLOTS);
    if (list == NULL) return NULL;
    for (int k = 0; k < SLOTS; k++) {
        PyObject *n = PyLong_FromLong(counts[k]);
        if (n == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, k, n);
    }
    return list;
}

/* The table as a tuple of compact melds (a new reference), or NULL with an exception set. */
static PyObject *table_tuple(const Compact *table, int n) {
    PyObject *tuple = PyTuple_New(n);
    if (tuple == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        const Compact *m = &table[i];
        PyObject *meld = Py_BuildValue("(iiiii)", m->kind, m->a, m->b, m->c, m->d);
        if (meld == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, i, meld);
    }
    return tuple;
}

/* The turn's hand, notold and table as Python objects for a call of a Python part: the
 * caller's arguments, or for a turn the C search reached, made now (new references); 0, or
 * -1 with an exception set. */
static int turn_objects(const Turn *t, PyObject **hand, PyObject **notold, PyObject **table) {
    if (t->hand_arg != NULL) {
        *hand = Py_NewRef(t->hand_arg);
        *notold = Py_NewRef(t->notold_arg);
        *table = Py_NewRef(t->table_arg);
        return 0;
    }
    *hand = counts_list(t->hand);
    *notold = *hand == NULL ? NULL : counts_list(t->notold);
    *table = *notold == NULL ? NULL : table_tuple(t->table, t->n);
    if (*table == NULL) {
        Py_XDECREF(*hand);
        Py_XDECREF(*notold);
        return -1;
    }
    return 0;
}

/* The compact form of option o as a table meld (melds.compact): a sequence's jokers at the
 * window's positions no real card holds, a set's open. */
static Compact option_compact(const Option *o) {
    Compact c;
    if (o->length) {
        int window = window_mask(o->start, o->length), held = 0;
        for (int r = 0; r < o->n_reals; r++) held |= 1 << (o->reals[r] % RANKS);
        c.kind = 0;
        c.a = o->reals[0] / RANKS;
        c.b = o->start;
        c.c = o->length;
        c.d = window & ~held;
    } else {
        int real = 0;
        for (int r = 0; r < o->n_reals; r++) real |= 1 << (o->reals[r] / RANKS);
        c.kind = 1;
        c.a = o->reals[0] % RANKS;
        c.b = real;
        c.c = 0;
        c.d = o->used;
    }
    return c;
}

/* The turn next after laying option o (completion._laid; a taken joker, held, stays:
 * keep), the points due less its points, a layout, o on the table; pending as given. */
static void lay_option(const Turn *t, const Option *o, int pending, Turn *next) {
    *next = *t;
    next->hand_arg = next->notold_arg = next->table_arg = NULL;
    int keep = t->card == CARDS;
    for (int r = 0; r < o->n_reals; r++) {
        int c = o->reals[r];
        next->hand[c]--;
        if (next->notold[c]) next->notold[c]--;
    }
    for (int j = 0; j < o->used; j++) {
        next->hand[CARDS]--;
        if (next->notold[CARDS] > keep) next->notold[CARDS]--;
    }
    next->need = t->need > 0 ? t->need - o->points : 0;
    next->pending = pending;
    next->layout = 1;
    next->table[next->n++] = option_compact(o);
}

static int judge(const Turn *t, int melds_fail);

/* completion._search_pending (joker_for_held, the taken card still to be melded) over the
 * groups' options, asking judge() of every turn it reaches: the taken card's meld now, then
 * the rest; or with a layout a swap first; or without one a meld first to gain one. 1, 0,
 * or -1 with an exception set. The groups read stay listed while it runs (groups_held). */
static int search_pending(const Turn *t) {
    const int *hand = t->hand;
    int size = 0;
    for (int k = 0; k < SLOTS; k++) size += hand[k];
    if (t->n >= TABLE_ROOM) {
        PyErr_SetString(PyExc_ValueError, "the search laid more melds than a hand holds");
        return -1;
    }
    Turn *next = PyMem_Malloc(sizeof(Turn));
    if (next == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    groups_held++;
    const Option *options[MELD_GROUPS];
    Py_ssize_t sizes[MELD_GROUPS];
    int ok = 0;
    int n = hand[t->card] ? card_groups(hand, t->card, 1, options, sizes) : 0;
    if (n < 0) ok = -1;
    for (int g = 0; g < n && !ok; g++) {         /* the taken card's meld */
        for (Py_ssize_t i = 0; i < sizes[g] && !ok; i++) {
            const Option *o = &options[g][i];
            if (o->n_reals + o->used >= size || (t->card == CARDS && !o->used)
                || !is_third(o, t->card, hand, t->notold))
                continue;
            lay_option(t, o, 0, next);
            ok = judge(next, 0);
        }
    }
    if (!ok && t->layout) {                      /* a swap first */
        for (int i = 0; i < t->n && !ok; i++) {
            const Compact before = t->table[i];
            if (!meld_jokers(&before)) continue;
            for (int j = 0; j < (before.kind == 0 ? RANKS : SUITS) && !ok; j++) {
                Compact after = before;
                int given;
                if (before.kind == 0) {          /* completion.swaps, as swap_walk */
                    if (!(before.d >> j & 1)) continue;
                    given = before.a * RANKS + j;
                    after.d = before.d & ~(1 << j);
                } else {
                    given = j * RANKS + before.a;
                    int bit = 1 << j;
                    if (before.c & bit) {
                        after.b = before.b | bit;
                        after.c = before.c & ~bit;
                    } else if (before.d && !((before.b | before.c) & bit)) {
                        after.b = before.b | bit;
                        after.d = before.d - 1;
                    } else {
                        continue;
                    }
                }
                if (!hand[given]) continue;
                *next = *t;
                next->hand_arg = next->notold_arg = next->table_arg = NULL;
                next->hand[given]--;
                if (next->notold[given]) next->notold[given]--;
                next->hand[CARDS]++;
                next->notold[CARDS]++;
                next->table[i] = after;
                next->layout = 1;
                if (next->hand[CARDS] > MAX_JOKERS || next->notold[CARDS] > MAX_JOKERS) {
                    /* as the judge's own input check would refuse the turn */
                    PyErr_Format(PyExc_ValueError, "%s 52 is %d, not in 0..%d",
                                 next->hand[CARDS] > MAX_JOKERS ? "hand" : "notold",
                                 next->hand[CARDS] > MAX_JOKERS ? next->hand[CARDS]
                                                                : next->notold[CARDS],
                                 MAX_JOKERS);
                    ok = -1;
                    break;
                }
                ok = judge(next, 0);
            }
        }
    } else if (!ok) {                            /* a meld first, to gain a layout */
        int jokers_left = 0;
        for (int i = 0; i < t->n; i++) jokers_left |= meld_jokers(&t->table[i]) > 0;
        n = jokers_left ? card_groups(hand, CARDS, 1, options, sizes) : 0;
        if (n < 0) ok = -1;
        for (int g = 0; g < n && !ok; g++) {
            for (Py_ssize_t i = 0; i < sizes[g] && !ok; i++) {
                const Option *o = &options[g][i];
                if (o->n_reals + o->used >= size
                    || (t->card == CARDS && o->used >= hand[CARDS]))  /* lays_taken_joker */
                    continue;
                lay_option(t, o, 1, next);
                if (!next->hand[t->card] || !any_swap(t->table, t->n, next->hand)) continue;
                ok = judge(next, 0);
            }
        }
    }
    groups_held--;
    PyMem_Free(next);
    return ok;
}

/* completion.completable over a checked turn: 1, 0, or -1 with an error set. */
static int judge(const Turn *t, int melds_fail) {
    const int *hand = t->hand, *notold = t->notold;
    int size = 0;
    for (int k = 0; k < SLOTS; k++) size += hand[k];
    if (size < 1) return 0;
    if (!t->pending && t->need <= 0) return 1;
    int swap_left = -1;        /* any_swap, computed when first asked */
    if (melds_fail && t->replace && !(swap_left = any_swap(t->table, t->n, hand))) return 0;
    if (t->pending && (!hand[t->card]
                       || !third_card_possible(hand, notold, t->card, size, t->table, t->n)))
        return 0;
    if (t->need > 0 && points_margin(hand, t->table, t->n) < t->need) return 0;
    if (!melds_fail) {
        int ok = melds_alone(t, size);
        if (ok != 0) return ok;
    }
    if (t->replace && swap_left < 0) swap_left = any_swap(t->table, t->n, hand);
    if (t->replace && !swap_left) return 0;
    if (t->replace && t->pending && t->need <= 0 && t->layout) {
        int best = 0;   /* completion.third_card_by_swaps: some swap state's meld is short */
        if (swap_states_third(hand, notold, t->table, t->n, t->card, size, &best) < 0)
            return -1;
        return 0 < best && best < size;
    }
    if (!t->replace) {
        Turn with = *t;
        with.replace = 1;
        int ok = judge(&with, 0);
        if (ok <= 0) return ok;   /* every step allowed without joker_for_held is allowed with it */
    }
    /* The memo key: what completion._MEMO's key holds, as bytes. */
    uint8_t key[KEY_HEAD + 4 * TABLE_ROOM];
    for (int k = 0; k < SLOTS; k++) {
        key[k] = (uint8_t)hand[k];
        key[SLOTS + k] = (uint8_t)(t->pending ? notold[k] : 0);
    }
    int need = t->need > 0 ? t->need : 0;
    uint8_t *head = key + 2 * SLOTS;
    head[0] = (uint8_t)(t->pending ? t->card + 1 : 0);
    head[1] = (uint8_t)(t->pending | t->layout << 1 | t->replace << 2);
    memcpy(head + 2, &need, 4);
    uint32_t codes[TABLE_ROOM];
    int n_codes = 0;
    for (int i = 0; i < t->n; i++)
        if (!t->replace || meld_jokers(&t->table[i])) codes[n_codes++] = meld_code(&t->table[i]);
    qsort(codes, (size_t)n_codes, sizeof(uint32_t), code_order);
    head[6] = (uint8_t)n_codes;
    memcpy(key + KEY_HEAD, codes, 4 * (size_t)n_codes);
    PyObject *key_bytes = PyBytes_FromStringAndSize((const char *)key,
                                                    KEY_HEAD + 4 * n_codes);
    if (key_bytes == NULL) return -1;
    PyObject *known = PyDict_GetItemWithError(judge_memo, key_bytes);
    if (known != NULL) {
        Py_DECREF(key_bytes);
        return known == Py_True;
    }
    if (PyErr_Occurred() || PyDict_SetItem(judge_memo, key_bytes, Py_False) < 0) {
        Py_DECREF(key_bytes);
        return -1;
    }
    /* a state revisited on its own path (above, False) completes nothing new */
    int ok;
    if (t->replace && t->pending) {
        ok = search_pending(t);
    } else {      /* completion.search_completion's other searches, in Python */
        PyObject *hand_obj, *notold_obj, *table_obj;
        ok = turn_objects(t, &hand_obj, &notold_obj, &table_obj);
        if (ok == 0) {
            ok = truth_of(call_part(
                search_steps, "(OOiiOOOO)", hand_obj, notold_obj, t->card, t->need,
                t->pending ? Py_True : Py_False, t->layout ? Py_True : Py_False, table_obj,
                t->replace ? Py_True : Py_False));
            Py_DECREF(hand_obj);
            Py_DECREF(notold_obj);
            Py_DECREF(table_obj);
        }
    }
    if (ok >= 0) {
        if (PyDict_GET_SIZE(judge_memo) > MEMO_LIMIT) PyDict_Clear(judge_memo);
        if (PyDict_SetItem(judge_memo, key_bytes, ok ? Py_True : Py_False) < 0) ok = -1;
    }
    Py_DECREF(key_bytes);
    return ok;
}

/* A bool argument (True or False, as the typed reference requires), else TypeError. */
static int bool_arg(PyObject *arg, const char *what, int *out) {
    if (!PyBool_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "%s must be a bool, not %.100s", what,
                     Py_TYPE(arg)->tp_name);
        return -1;
    }
    *out = arg == Py_True;
    return 0;
}

/* What the entry points of the judged legal lists share: the judge configured, the turn's
 * hand and notold (from its arguments) and the taken card (0..52) read and checked, and the
 * points due within lowest..highest. 0, or -1 with an exception set. */
static int read_turn_cards(Turn *t, PyObject *card_arg, PyObject *need_arg, long lowest,
                           long highest) {
    if (search_steps == NULL || !configured) {
        PyErr_SetString(PyExc_RuntimeError, "configure() or configure_judge() was not called");
        return -1;
    }
    if (read_hand(t->hand_arg, "hand", t->hand) < 0
        || read_hand(t->notold_arg, "notold", t->notold) < 0
        || int_in(card_arg, 0, CARDS, "card", -1, &t->card) < 0
        || int_in(need_arg, lowest, highest, "need", -1, &t->need) < 0)
        return -1;
    return 0;
}

/* The arguments every legal-list part of the judge reads alike into turn t (t->hand_arg,
 * t->notold_arg and t->table_arg given): read_turn_cards' with the points due within
 * 2**30, then the table and replace. 0, or -1 with an exception set. */
static int read_turn(Turn *t, PyObject *card_arg, PyObject *need_arg, PyObject *replace_arg) {
    if (read_turn_cards(t, card_arg, need_arg, -BOUND, BOUND) < 0
        || read_table(t->table_arg, t->table, &t->n) < 0
        || jokers_fit(t->hand, 0, t->table, t->n) < 0
        || bool_arg(replace_arg, "replace", &t->replace) < 0)
        return -1;
    return 0;
}

PyDoc_STRVAR(completable_doc,
"completable(hand, notold, card, need, pending, layout, table, replace, melds_fail=False)\n\n"
"Whether a take turn can still be completed, exactly: completion.completable (its\n"
"reference, completion.reference_completable, documents the arguments). hand and notold:\n"
"lists of 53 counts (cards at most 3, jokers at most 7); card 0..52;\n"
"table: a tuple of compact melds. Bad input raises TypeError or ValueError.");

static PyObject *completable(PyObject *module, PyObject *args, PyObject *kwds) {
    (void)module;
    static char *names[] = {"hand", "notold", "card", "need", "pending", "layout", "table",
                            "replace", "melds_fail", NULL};
    PyObject *card_arg, *need_arg, *pending_arg, *layout_arg, *replace_arg;
    PyObject *melds_fail_arg = Py_False;
    Turn t;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOOOOO|O:completable", names,
                                     &t.hand_arg, &t.notold_arg, &card_arg, &need_arg,
                                     &pending_arg, &layout_arg, &t.table_arg, &replace_arg,
                                     &melds_fail_arg))
        return NULL;
    int melds_fail;
    if (bool_arg(pending_arg, "pending", &t.pending) < 0
        || bool_arg(layout_arg, "layout", &t.layout) < 0
        || bool_arg(replace_arg, "replace", &t.replace) < 0
        || bool_arg(melds_fail_arg, "melds_fail", &melds_fail) < 0)
        return NULL;
    if (search_steps == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "configure_judge() was not called");
        return NULL;
    }
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "configure() was not called");
        return NULL;
    }
    if (read_hand(t.hand_arg, "hand", t.hand) < 0
        || read_hand(t.notold_arg, "notold", t.notold) < 0
        || int_in(card_arg, 0, CARDS, "card", -1, &t.card) < 0
        || int_in(need_arg, -BOUND, BOUND, "need", -1, &t.need) < 0
        || read_table(t.table_arg, t.table, &t.n) < 0
        || jokers_fit(t.hand, 0, t.table, t.n) < 0)
        return NULL;
    int ok = judge(&t, melds_fail);
    if (ok < 0) return NULL;
    return PyBool_FromLong(ok);
}

/* A search argument: None (NULL into search) or a built Search; 0, or -1 with an exception
 * set. */
static int read_search(PyObject *arg, SearchObject **search) {
    *search = NULL;
    if (arg == Py_None) return 0;
    if (!PyObject_TypeCheck(arg, &SearchType)) {
        PyErr_Format(PyExc_TypeError, "search must be None or a Search, not %.100s",
                     Py_TYPE(arg)->tp_name);
        return -1;
    }
    *search = (SearchObject *)arg;
    return check_made(*search);
}

PyDoc_STRVAR(can_complete_doc,
"can_complete(counts, taken, card, need, pending, search=None, size=-1, checked=False,\n"
"             replace=False) -> bool\n\n"
"solver.can_complete (its reference, solver.reference_can_complete, documents the\n"
"arguments): whether a take turn can still be completed by laying melds. counts and taken:\n"
"lists of 53 counts (cards at most 3, jokers at most 7); card 0..52; search: None or a\n"
"Search (HandSearch.search). Bad input raises TypeError or ValueError.");

static PyObject *can_complete(PyObject *module, PyObject *args, PyObject *kwds) {
    (void)module;
    static char *names[] = {"counts", "taken", "card", "need", "pending", "search", "size",
                            "checked", "replace", NULL};
    PyObject *counts_arg, *taken_arg, *card_arg, *need_arg, *pending_arg;
    PyObject *search_arg = Py_None, *size_arg = NULL, *checked_arg = Py_False;
    PyObject *replace_arg = Py_False;
    int counts[SLOTS], taken[SLOTS], card, need, size = -1, pending, checked, replace;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOO|OOOO:can_complete", names,
                                     &counts_arg, &taken_arg, &card_arg, &need_arg,
                                     &pending_arg, &search_arg, &size_arg, &checked_arg,
                                     &replace_arg))
        return NULL;
    SearchObject *search;
    if (read_search(search_arg, &search) < 0) return NULL;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "configure() was not called");
        return NULL;
    }
    if (bool_arg(pending_arg, "pending", &pending) < 0
        || bool_arg(checked_arg, "checked", &checked) < 0
        || bool_arg(replace_arg, "replace", &replace) < 0
        || read_hand(counts_arg, "counts", counts) < 0
        || read_hand(taken_arg, "taken", taken) < 0
        || int_in(card_arg, 0, CARDS, "card", -1, &card) < 0
        || int_in(need_arg, -BOUND, BOUND, "need", -1, &need) < 0
        || (size_arg != NULL && int_in(size_arg, -BOUND, BOUND, "size", -1, &size) < 0))
        return NULL;
    /* The search is held: nothing here runs Python code, but a search made by Python code
     * is freed only by it. */
    Py_XINCREF(search_arg);
    int ok = melds_complete(search, counts, taken, card, need, pending, size, checked,
                            replace);
    Py_XDECREF(search_arg);
    if (ok < 0) return NULL;
    return PyBool_FromLong(ok);
}

PyDoc_STRVAR(swap_third_length_doc,
"swap_third_length(hand, notold, card, table) -> int\n\n"
"completion.swap_third_length (its reference, completion.reference_swap_third_length): the\n"
"shortest meld of the taken card (0..51) with two old cards over every choice of swaps with\n"
"the table, 0 when none. Arguments as completable()'s; bad input raises TypeError or\n"
"ValueError.");

static PyObject *swap_third_length(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *hand_arg, *notold_arg, *card_arg, *table_arg;
    int hand[SLOTS], notold[SLOTS], card, n;
    Compact table[MAX_TABLE];
    if (!PyArg_ParseTuple(args, "OOOO:swap_third_length", &hand_arg, &notold_arg, &card_arg,
                          &table_arg))
        return NULL;
    if (read_hand(hand_arg, "hand", hand) < 0 || read_hand(notold_arg, "notold", notold) < 0
        || int_in(card_arg, 0, CARDS - 1, "card", -1, &card) < 0
        || read_table(table_arg, table, &n) < 0 || jokers_fit(hand, 0, table, n) < 0)
        return NULL;
    if (!hand[card]) return PyLong_FromLong(0);   /* a swap never brings it back */
    int best = card_third(hand, notold, card, 0, 1);
    if (any_swap(table, n, hand) && swap_states_third(hand, notold, table, n, card, 0, &best) < 0)
        return NULL;
    return PyLong_FromLong(best);
}

/* ------------------------------------------------------------------ the swap-third melds
 * The melds of a legal list after a take while only the taken card's meld is due, with a
 * layout, joker_for_held and a taken card that is not a joker
 * (LegalSteps._swap_third_actions; its reference, LegalSteps.reference_swap_third_melds):
 * a meld is legal exactly when it is the taken card's meld, or when the shortest
 * third-card meld over every choice of swaps after it (its own jokers among them) is
 * shorter than the hand it leaves. */

#define JOKER_FOR (CARDS + 1)          /* melds.JOKER_FOR: a joker declared as card k */
#define OPEN_JOKER (JOKER_FOR + CARDS)  /* melds.OPEN_JOKER: an open set joker of a rank */
#define MELD_MAX 13                    /* a sequence of 13 cards */

/* A candidate meld's slots read and checked: a tuple of 3..13 slots in the canonical form
 * hand_melds lists (a sequence's slots in window order, each its real card or the joker
 * declared as it, at most half jokers; a set's real cards by suit, then jokers declared as
 * its missing suits by suit, then open jokers, 3 or 4 in all, at most half jokers), laid
 * from cards the hand holds. Its cards into removed (52 for a joker) and its compact form
 * into c; its length, or -1 with an exception set. */
static int read_meld(PyObject *m, Py_ssize_t index, const int *hand, int *removed,
                     Compact *c) {
    if (!PyTuple_Check(m)) {
        PyErr_Format(PyExc_TypeError, "meld %zd must be a tuple of slots, not %.100s", index,
                     Py_TYPE(m)->tp_name);
        return -1;
    }
    Py_ssize_t size = PyTuple_GET_SIZE(m);
    if (size < 3 || size > MELD_MAX) {
        PyErr_Format(PyExc_ValueError, "meld %zd is %R: not 3 to %d slots", index, m,
                     MELD_MAX);
        return -1;
    }
    int slots[MELD_MAX], n = (int)size, jokers = 0, reals[2], n_reals = 0;
    for (int i = 0; i < n; i++) {
        if (int_in(PyTuple_GET_ITEM(m, i), 0, OPEN_JOKER + RANKS - 1, "slot of meld", index,
                   &slots[i]) < 0)
            return -1;
        if (slots[i] >= CARDS) {
            jokers++;
        } else if (n_reals < 2) {
            reals[n_reals++] = slots[i];
        }
    }
    int ok = n_reals == 2 && jokers * 2 <= n;
    if (ok && reals[0] % RANKS == reals[1] % RANKS) {   /* melds.meld_kind: a set */
        int rank = reals[0] % RANKS, real = 0, decl = 0, open = 0, stage = 0, last = -1;
        ok = n <= SUITS;
        for (int i = 0; ok && i < n; i++) {
            int x = slots[i];
            if (x < CARDS) {
                int suit = x / RANKS;
                ok = stage == 0 && x % RANKS == rank && suit > last;
                if (ok) { real |= 1 << suit; last = suit; }
            } else if (x >= JOKER_FOR && x < OPEN_JOKER) {
                int k = x - JOKER_FOR, suit = k / RANKS;
                if (stage == 0) { stage = 1; last = -1; }
                ok = stage == 1 && k % RANKS == rank && suit > last && !(real >> suit & 1);
                if (ok) { decl |= 1 << suit; last = suit; }
            } else {
                stage = 2;
                ok = x == OPEN_JOKER + rank;
                open++;
            }
        }
        *c = (Compact){1, rank, real, decl, open};
    } else if (ok) {                                     /* a sequence */
        /* its first slot a real card or a declared joker (a bare or open joker: no) */
        int first = slots[0] < CARDS ? slots[0]
            : slots[0] >= JOKER_FOR && slots[0] < OPEN_JOKER ? slots[0] - JOKER_FOR : 0;
        int suit = first / RANKS, start = first % RANKS, mask = 0;
        ok = (slots[0] < CARDS || (slots[0] >= JOKER_FOR && slots[0] < OPEN_JOKER))
            && (n < RANKS || start == 0);
        for (int i = 0; ok && i < n; i++) {
            int want = suit * RANKS + (start + i) % RANKS;
            if (slots[i] == JOKER_FOR + want) mask |= 1 << (start + i) % RANKS;
            else ok = slots[i] == want;
        }
        *c = (Compact){0, suit, start, n, mask};
    }
    if (!ok) {
        PyErr_Format(PyExc_ValueError, "meld %zd is %R, not a meld in canonical form", index,
                     m);
        return -1;
    }
    int used[SLOTS] = {0};
    for (int i = 0; i < n; i++) {
        int k = slots[i] < CARDS ? slots[i] : CARDS;
        removed[i] = k;
        if (++used[k] > hand[k]) {
            PyErr_Format(PyExc_ValueError, "meld %zd is %R, more than the hand holds", index,
                         m);
            return -1;
        }
    }
    return n;
}

/* third_card.is_third_card_meld of a meld's cards (removed) for a taken card that is not a
 * joker, laid from hand (notold: its cards not held before the take). */
static int cards_third(const int *removed, int n, int card, const int *hand,
                       const int *notold) {
    int old = 0, jokers = 0, has_card = 0;
    for (int i = 0; i < n; i++) {
        int k = removed[i];
        if (k == CARDS) jokers++;
        else if (k == card) has_card = 1;
        else if (hand[k] > notold[k]) old++;
    }
    int old_jokers = hand[CARDS] - notold[CARDS];
    if (jokers > old_jokers) jokers = old_jokers;
    return has_card && old + (jokers > 0 ? jokers : 0) >= 2;
}

/* Whether the turn can be completed from the state after a step (hand, notold: the cards
 * left; table: the n melds with jokers after it), which leaves left cards: the shortest
 * third-card meld over its swap states, the state itself first, shorter than left. 1 or 0,
 * or -1 with an exception set. */
static int state_leaves_third(const int *hand, const int *notold, int card,
                              const Compact *table, int n, int left) {
    int best = card_third(hand, notold, card, 0, 1);
    if (0 < best && best < left) return 1;        /* with no swap at all */
    if (!hand[card] || !any_swap(table, n, hand)) return 0;
    if (swap_states_third(hand, notold, table, n, card, left, &best) < 0) return -1;
    return 0 < best && best < left;
}

/* Whether the turn can be completed after laying the meld (cards removed, compact form laid,
 * leaving left cards): the shortest third-card meld over the swap states of the table with
 * it, the hand as it is first, shorter than left. 1 or 0, or -1 with an exception set. */
static int meld_leaves_third(const int *hand, const int *notold, int card, const Compact *table,
                             int n, const int *removed, int n_removed, const Compact *laid,
                             int left) {
    int rest[SLOTS], rest_notold[SLOTS];
    Compact after[MAX_TABLE + 1];
    memcpy(rest, hand, sizeof(rest));
    memcpy(rest_notold, notold, sizeof(rest_notold));
    for (int i = 0; i < n_removed; i++) {
        int k = removed[i];
        rest[k]--;
        if (rest_notold[k]) rest_notold[k]--;
    }
    memcpy(after, table, sizeof(Compact) * (size_t)n);
    int m = n;
    if (meld_jokers(laid)) after[m++] = *laid;
    return state_leaves_third(rest, rest_notold, card, after, m, left);
}

/* The cards the length now reads (completion.swap_third_cards: the taken card's suit and
 * rank, the cards that win a joker of the table's n melds with jokers, and the joker) marked
 * in read, and that length (completion.swap_third_length) into floor. 0, or -1 with an
 * exception set. */
static int third_now(const int *hand, const int *notold, int card, const Compact *table, int n,
                     char *read, int *floor) {
    for (int q = 0; q < RANKS; q++) read[card / RANKS * RANKS + q] = 1;
    for (int t = 0; t < SUITS; t++) read[t * RANKS + card % RANKS] = 1;
    for (int i = 0; i < n; i++) meld_winners(&table[i], read);
    read[CARDS] = 1;
    *floor = card_third(hand, notold, card, 0, 1);
    if (any_swap(table, n, hand) && swap_states_third(hand, notold, table, n, card, 0, floor)
        < 0)
        return -1;
    return 0;
}

/* The pair (a, b) of ints, a new tuple, or NULL with an exception set. */
static PyObject *int_pair(long a, long b) {
    PyObject *first = PyLong_FromLong(a), *second = PyLong_FromLong(b), *pair = NULL;
    if (first != NULL && second != NULL) pair = PyTuple_Pack(2, first, second);
    Py_XDECREF(first);
    Py_XDECREF(second);
    return pair;
}

/* A new empty list for the answers on the items of arg, which must be a list (named name,
 * of what); NULL with an exception set when it is not. */
static PyObject *answers_for(PyObject *arg, const char *name, const char *what) {
    if (!PyList_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "%s must be a list of %s, not %.100s", name, what,
                     Py_TYPE(arg)->tp_name);
        return NULL;
    }
    return PyList_New(0);
}

/* The legal melds of melds_arg (a list of candidate melds, each checked before use) for a
 * hand of size cards, the table's n melds with jokers, the cards the length reads and the
 * length now (third_now): a new list of the same objects, in order, or NULL with an
 * exception set. A meld of none of the cards the length reads leaves it as it is (floor). */
static PyObject *legal_melds(const int *hand, const int *notold, int card, const Compact *table,
                             int n, const char *read, int floor, PyObject *melds_arg,
                             int size) {
    PyObject *out = answers_for(melds_arg, "melds", "melds");
    if (out == NULL) return NULL;
    /* The list is read item by item, and nothing here runs Python code that could change
     * it; each meld is checked before use. */
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(melds_arg); i++) {
        PyObject *m = PyList_GET_ITEM(melds_arg, i);
        int removed[MELD_MAX];
        Compact laid;
        int length = read_meld(m, i, hand, removed, &laid);
        if (length < 0) goto fail;
        int left = size - length, verdict;
        if (left <= 0) continue;
        if (cards_third(removed, length, card, hand, notold)) {
            verdict = 1;
        } else if (left <= floor) {
            verdict = 0;     /* a step only lengthens it: no card becomes old */
        } else {
            int reads = 0;
            for (int j = 0; j < length; j++) reads |= read[removed[j]];
            verdict = !reads ? 0 < floor && floor < left
                : meld_leaves_third(hand, notold, card, table, n, removed, length, &laid,
                                    left);
            if (verdict < 0) goto fail;
        }
        if (verdict && PyList_Append(out, m) < 0) goto fail;
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* The arguments the swap-third parts share read and checked: hand, notold, card, table and
 * size. 0, or -1 with an exception set. */
static int read_third_turn(PyObject *hand_arg, PyObject *notold_arg, PyObject *card_arg,
                           PyObject *table_arg, PyObject *size_arg, int *hand, int *notold,
                           int *card, Compact *table, int *n, int *size) {
    if (read_hand(hand_arg, "hand", hand) < 0 || read_hand(notold_arg, "notold", notold) < 0
        || int_in(card_arg, 0, CARDS - 1, "card", -1, card) < 0
        || read_table(table_arg, table, n) < 0 || jokers_fit(hand, 0, table, *n) < 0
        || int_in(size_arg, -BOUND, BOUND, "size", -1, size) < 0)
        return -1;
    if (!hand[*card]) {
        /* The reference's fast judge then reads the hand as if it held the card: a state
         * no legal step leads to, left to the reference (LegalSteps._swap_third_actions). */
        PyErr_Format(PyExc_ValueError, "hand does not hold the taken card %d", *card);
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(swap_third_melds_doc,
"swap_third_melds(hand, notold, card, table, melds, size) -> (int, list[tuple[int, ...]])\n\n"
"The shortest third-card meld over every choice of swaps now (completion.swap_third_length)\n"
"and the melds of melds (candidate melds in canonical form, laid from hand) that a legal\n"
"list after a take offers while only the taken card's meld is due, with a layout and\n"
"joker_for_held (LegalSteps.reference_swap_third_melds in C), in order, the same objects.\n"
"hand, notold: lists of 53 counts; card 0..51 (not a joker); table: the table's melds with\n"
"jokers, a tuple of compact melds; size: the hand's size, within 2**30. Bad input (a hand\n"
"without the taken card among it) raises TypeError or ValueError.");

static PyObject *swap_third_melds(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *hand_arg, *notold_arg, *card_arg, *table_arg, *melds_arg, *size_arg;
    int hand[SLOTS], notold[SLOTS], card, n, size, floor;
    Compact table[MAX_TABLE];
    char read[SLOTS] = {0};
    if (!PyArg_ParseTuple(args, "OOOOOO:swap_third_melds", &hand_arg, &notold_arg, &card_arg,
                          &table_arg, &melds_arg, &size_arg)
        || read_third_turn(hand_arg, notold_arg, card_arg, table_arg, size_arg, hand, notold,
                           &card, table, &n, &size) < 0
        || third_now(hand, notold, card, table, n, read, &floor) < 0)
        return NULL;
    PyObject *out = legal_melds(hand, notold, card, table, n, read, floor, melds_arg, size);
    return out == NULL ? NULL : Py_BuildValue("(iN)", floor, out);
}

/* ------------------------------------------------------------------ the swap-third list
 * The whole legal list of LegalSteps._swap_third_actions (its reference,
 * LegalSteps.reference_swap_third_actions): its melds as swap_third_melds judges them, then
 * its candidate lay-offs and swaps (Actions, listed by the engine), each legal exactly when
 * the shortest third-card meld over every choice of swaps after it, with the table as the
 * step leaves it, is shorter than the hand it leaves. */

static PyObject *str_kind = NULL, *str_number = NULL, *str_slots = NULL;

/* The compact meld m once slot is laid off onto it (TableMeld.lay_off, as compact reads it)
 * into after: 0, or -1 when slot is not a lay-off onto m (TableMeld.layoff_options). */
static int laid_off(const Compact *m, int slot, Compact *after) {
    *after = *m;
    int joker = slot >= CARDS;
    if (m->kind == 0) {
        int n = m->c;
        int k = !joker ? slot : slot >= JOKER_FOR && slot < OPEN_JOKER ? slot - JOKER_FOR : -1;
        if (k < 0 || n >= RANKS || k / RANKS != m->a) return -1;
        int q = k % RANKS, left = (m->b + RANKS - 1) % RANKS, right = (m->b + n) % RANKS;
        if ((q != left && q != right) || (joker && (bits(m->d) + 1) * 2 > n + 1)) return -1;
        if (q == left && n + 1 < RANKS) after->b = q;      /* laid before its first slot */
        after->c = n + 1;
        if (joker) after->d = m->d | 1 << q;
        return 0;
    }
    int n = bits(m->b) + bits(m->c) + m->d;
    if (n >= SUITS) return -1;
    if (joker) {
        if (slot != OPEN_JOKER + m->a || (bits(m->c) + m->d + 1) * 2 > n + 1) return -1;
        after->d = m->d + 1;
        return 0;
    }
    int bit = 1 << slot / RANKS;
    if (slot % RANKS != m->a || (m->b | m->c) & bit) return -1;
    after->b = m->b | bit;
    return 0;
}

/* Whether the turn can be completed after a step that takes the n_removed cards removed
 * (52: a joker) from the hand, taken copies first, then brings fresh jokers in (a swap's),
 * and leaves meld i of the table's n as after (i < 0: the table's swaps as they are),
 * leaving left cards. 1 or 0, or -1 with an exception set. */
static int step_leaves_third(const int *hand, const int *notold, int card, const Compact *table,
                             int n, int i, const Compact *after, const int *removed,
                             int n_removed, int fresh, int left) {
    int rest[SLOTS], rest_notold[SLOTS];
    Compact jokered[MAX_TABLE];
    memcpy(rest, hand, sizeof(rest));
    memcpy(rest_notold, notold, sizeof(rest_notold));
    for (int r = 0; r < n_removed; r++) {
        int k = removed[r];
        rest[k]--;
        if (rest_notold[k]) rest_notold[k]--;
    }
    rest[CARDS] += fresh;
    rest_notold[CARDS] += fresh;
    int m = 0;
    for (int t = 0; t < n; t++) {
        const Compact *c = t == i ? after : &table[t];
        if (meld_jokers(c)) jokered[m++] = *c;
    }
    return state_leaves_third(rest, rest_notold, card, jokered, m, left);
}

/* What the verdicts of one list share: the turn (hand, notold, card, size), the table's n
 * melds, the cards the length reads and the length now (third_now), and the verdicts known
 * on steps that leave the table's swaps as they are (0 not asked, 1 no, 2 yes): a real
 * card laid off, by card; a joker laid off that only given cards win, with the table as it
 * is (joker_gone), and then won back by card k (won_back[k]). */
typedef struct {
    const int *hand, *notold;
    int card, size, n, floor;
    const Compact *table;
    const char *read;
    char plain[CARDS], joker_gone, won_back[CARDS];
} ThirdList;

/* A verdict of step_leaves_third with the table's swaps as they are, kept in *known. */
static int known_verdict(const ThirdList *l, char *known, const int *removed, int n_removed,
                         int fresh, int left) {
    if (!*known) {
        int verdict = step_leaves_third(l->hand, l->notold, l->card, l->table, l->n, -1, NULL,
                                        removed, n_removed, fresh, left);
        if (verdict < 0) return -1;
        *known = (char)(1 + verdict);
    }
    return *known - 1;
}

/* The verdict on laying off slot onto meld i (its compact form after: after), a lay-off
 * of a card the hand holds. A real card that leaves the table's swaps as they are (onto a
 * sequence, or a set without open jokers) is judged by the card alone; a joker onto a
 * sequence or a set without jokers puts one joker on the table that only its winners win:
 * the turn can be completed with it left there or won back at once by one of them (swaps
 * commute), each with the table as it is. 1 or 0, or -1 with an exception set. */
static int layoff_verdict(ThirdList *l, int i, int slot, const Compact *after) {
    int left = l->size - 1;
    if (left <= l->floor) return 0;     /* a step only lengthens it: no card becomes old */
    const Compact *m = &l->table[i];
    if (slot < CARDS) {
        if (m->kind == 1 && m->d)       /* the open jokers' winners change */
            return step_leaves_third(l->hand, l->notold, l->card, l->table, l->n, i, after,
                                     &slot, 1, 0, left);
        if (!l->read[slot]) return 0 < l->floor && l->floor < left;
        return known_verdict(l, &l->plain[slot], &slot, 1, 0, left);
    }
    if (meld_jokers(m) && m->kind == 1)
        return step_leaves_third(l->hand, l->notold, l->card, l->table, l->n, i, after,
                                 (const int[]){CARDS}, 1, 0, left);
    /* the cards that win the joker laid alone (meld_winners of it), in order */
    int winners[SUITS], n_winners = 0;
    if (m->kind == 0) {
        for (int rest = after->d & ~m->d; rest; rest &= rest - 1)
            winners[n_winners++] = m->a * RANKS + __builtin_ctz((unsigned int)rest);
    } else {
        for (int t = 0; t < SUITS; t++)
            if (after->d && !(after->b >> t & 1)) winners[n_winners++] = t * RANKS + m->a;
    }
    int verdict = known_verdict(l, &l->joker_gone, (const int[]){CARDS}, 1, 0, left);
    for (int w = 0; verdict == 0 && w < n_winners; w++) {
        int k = winners[w];
        if (l->hand[k])
            verdict = known_verdict(l, &l->won_back[k], (const int[]){CARDS, k}, 2, 1, left);
    }
    return verdict;
}

/* The legal lay-offs among options (TableMeld.layoff_options of each of the table's melds,
 * in order: (card, slot) pairs; those of cards the hand lacks are not candidates, and only
 * their card is read): a new list of (meld number, slot) pairs, in order, or NULL with an
 * exception set. */
static PyObject *legal_layoffs(ThirdList *l, PyObject *options) {
    if (!PyList_Check(options) || PyList_GET_SIZE(options) != l->n) {
        PyErr_Format(PyExc_TypeError, "options must be a list of %d lists, one for each "
                     "table meld, not %R", l->n, options);
        return NULL;
    }
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    /* Nothing here runs Python code that could change the lists; each pair is checked. */
    for (int i = 0; i < l->n; i++) {
        PyObject *pairs = PyList_GET_ITEM(options, i);
        if (!PyList_Check(pairs)) {
            PyErr_Format(PyExc_TypeError, "options %d must be a list of (card, slot) pairs, "
                         "not %.100s", i, Py_TYPE(pairs)->tp_name);
            goto fail;
        }
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(pairs); j++) {
            PyObject *pair = PyList_GET_ITEM(pairs, j);
            int k, slot;
            Compact after;
            if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
                PyErr_Format(PyExc_ValueError, "option %zd of meld %d is %R, not a (card, "
                             "slot) pair", j, i, pair);
                goto fail;
            }
            if (int_in(PyTuple_GET_ITEM(pair, 0), 0, CARDS, "card of option", j, &k) < 0)
                goto fail;
            if (!l->hand[k]) continue;  /* not a candidate: its slot is never read */
            if (int_in(PyTuple_GET_ITEM(pair, 1), 0, OPEN_JOKER + RANKS - 1, "slot of option",
                       j, &slot) < 0)
                goto fail;
            if (k != (slot < CARDS ? slot : CARDS) || laid_off(&l->table[i], slot, &after) < 0) {
                PyErr_Format(PyExc_ValueError, "option %zd of meld %d is %R, not a lay-off "
                             "onto it", j, i, pair);
                goto fail;
            }
            int verdict = layoff_verdict(l, i, slot, &after);
            if (verdict < 0) goto fail;
            if (verdict) {
                PyObject *step = int_pair(i, slot);
                if (step == NULL) goto fail;
                int status = PyList_Append(out, step);
                Py_DECREF(step);
                if (status < 0) goto fail;
            }
        }
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* A candidate swap (an Action: kind "swap", number, slots) read and checked: its meld
 * number, 0..n-1, and the card it gives. 0, or -1 with an exception set. */
static int read_swap(PyObject *step, Py_ssize_t index, int n, int *number, int *given) {
    PyObject *kind = PyObject_GetAttr(step, str_kind);
    if (kind == NULL) return -1;
    int same = PyUnicode_Check(kind) && PyUnicode_CompareWithASCIIString(kind, "swap") == 0;
    Py_DECREF(kind);
    if (!same) {
        PyErr_Format(PyExc_ValueError, "swap %zd is %R, not a swap", index, step);
        return -1;
    }
    PyObject *number_obj = PyObject_GetAttr(step, str_number);
    if (number_obj == NULL) return -1;
    int status = int_in(number_obj, 0, n - 1, "meld number of swap", index, number);
    Py_DECREF(number_obj);
    if (status < 0) return -1;
    PyObject *slots = PyObject_GetAttr(step, str_slots);
    if (slots == NULL) return -1;
    if (!PyTuple_Check(slots) || PyTuple_GET_SIZE(slots) != 1) {
        PyErr_Format(PyExc_ValueError, "swap %zd has slots %R, not one card", index, slots);
        status = -1;
    } else {
        status = int_in(PyTuple_GET_ITEM(slots, 0), 0, CARDS - 1, "card of swap", index,
                        given);
    }
    Py_DECREF(slots);
    return status;
}

/* The verdict on a swap of the card k for a joker of table meld i (after: that meld then),
 * given the judge's context: 1 or 0, or -1 with an exception set. */
typedef int (*SwapVerdict)(const void *context, int i, int k, const Compact *after);

/* The swap-third list's verdict on a swap (SwapVerdict; context: the ThirdList): judged with
 * the table as it leaves it. */
static int third_list_swap(const void *context, int i, int k, const Compact *after) {
    const ThirdList *l = context;
    if (l->size <= l->floor) return 0;  /* a swap only lengthens it: its states are now's */
    return step_leaves_third(l->hand, l->notold, l->card, l->table, l->n, i, after, &k, 1, 1,
                             l->size);
}

/* The legal swaps among swaps (candidate Actions, each one the hand holding hand can make
 * onto the table's n melds), by verdict: a new list of the same objects, in order, or NULL
 * with an exception set. */
static PyObject *legal_swaps(PyObject *swaps, const int *hand, const Compact *table, int n,
                             SwapVerdict verdict_of, const void *context) {
    PyObject *out = answers_for(swaps, "swaps", "actions");
    if (out == NULL) return NULL;
    /* Reading an action's fields (and a judge) may run Python code: each item is held while
     * read, and the list's size read again each time. */
    for (Py_ssize_t index = 0; index < PyList_GET_SIZE(swaps); index++) {
        PyObject *step = PyList_GET_ITEM(swaps, index);
        Py_INCREF(step);
        int i, k, verdict = -1;
        Compact after;
        if (read_swap(step, index, n, &i, &k) == 0) {
            const Compact *m = &table[i];
            if (!hand[k] || swap_meld(m, m->kind == 0 ? k % RANKS : k / RANKS, &after) != k)
                PyErr_Format(PyExc_ValueError, "swap %zd is %R, not one the hand can make",
                             index, step);
            else
                verdict = verdict_of(context, i, k, &after);
        }
        if (verdict > 0 && PyList_Append(out, step) < 0) verdict = -1;
        Py_DECREF(step);
        if (verdict < 0) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

PyDoc_STRVAR(swap_third_list_doc,
"swap_third_list(hand, notold, card, table, melds, size, options, swaps)\n"
"    -> (list[tuple[int, ...]], list[tuple[int, int]], list[Action])\n\n"
"The legal list after a take while only the taken card's meld is due, with a layout and\n"
"joker_for_held (LegalSteps.reference_swap_third_actions in C): the legal melds of melds\n"
"(as swap_third_melds), the legal lay-offs (meld number, slot) among options (each table\n"
"meld's TableMeld.layoff_options, in order; those of cards the hand lacks are not\n"
"candidates) and the legal swaps of swaps (candidate Actions), each in order. hand, notold,\n"
"card and size as swap_third_melds'; table: every meld of the table (its compact form, in\n"
"order). Bad input raises TypeError or ValueError.");

static PyObject *swap_third_list(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *hand_arg, *notold_arg, *card_arg, *table_arg, *melds_arg, *size_arg;
    PyObject *options_arg, *swaps_arg;
    int hand[SLOTS], notold[SLOTS], card, n, size, n_jokered = 0;
    Compact table[MAX_TABLE], jokered[MAX_TABLE];
    char read[SLOTS] = {0};
    if (!PyArg_ParseTuple(args, "OOOOOOOO:swap_third_list", &hand_arg, &notold_arg,
                          &card_arg, &table_arg, &melds_arg, &size_arg, &options_arg,
                          &swaps_arg)
        || read_third_turn(hand_arg, notold_arg, card_arg, table_arg, size_arg, hand, notold,
                           &card, table, &n, &size) < 0)
        return NULL;
    for (int i = 0; i < n; i++)
        if (meld_jokers(&table[i])) jokered[n_jokered++] = table[i];
    ThirdList l = {.hand = hand, .notold = notold, .card = card, .size = size, .n = n,
                   .table = table, .read = read};
    if (third_now(hand, notold, card, jokered, n_jokered, read, &l.floor) < 0) return NULL;
    PyObject *melds = legal_melds(hand, notold, card, jokered, n_jokered, read, l.floor,
                                  melds_arg, size);
    if (melds == NULL) return NULL;
    PyObject *layoffs = legal_layoffs(&l, options_arg);
    PyObject *swaps = layoffs == NULL ? NULL
        : legal_swaps(swaps_arg, hand, table, n, third_list_swap, &l);
    if (swaps == NULL) {
        Py_DECREF(melds);
        Py_XDECREF(layoffs);
        return NULL;
    }
    return Py_BuildValue("(NNN)", melds, layoffs, swaps);
}

/* ------------------------------------------------------------------ the take scan
 * completion.take_positions (its reference, completion.reference_take_positions) and its
 * fast path by melds alone, solver.take_positions (solver.reference_take_positions): the
 * bank positions a hand may take the bank from, walking the bank from the newest card. */

#define MAX_BANK (SLOTS * MAX_COPIES)   /* more would put more copies of a card in the hand */

/* third_card._joker_sequence_third: the shortest window of a suit (held positions pool, old
 * ones old) with a joker in a gap and two old cards, all but one joker counting as old up to
 * old_jokers; 0 when none. The windows by length, then start. */
static int joker_sequence_third(int old, int pool, int jokers, int old_jokers, int proxies,
                                int below) {
    int missing = FULL & ~pool, held_new = pool & ~old;
    for (int length = 3; length <= RANKS && length < below; length++) {
        for (int start = 0; start < (length < RANKS ? RANKS : 1); start++) {
            int wmask = window_mask(start, length);
            int gaps = bits(wmask & missing);
            int cap = length / 2 < jokers ? length / 2 : jokers;
            if (gaps > cap) continue;
            int old_n = bits(wmask & old), count;
            if (proxies) {
                int slots = gaps + bits(wmask & held_new);
                if (slots > cap) slots = cap;
                count = slots ? old_n + (old_jokers < slots - 1 ? old_jokers : slots - 1)
                              : old_n - 1;
            } else if (!gaps) {
                continue;
            } else {
                count = old_n + (gaps - 1 < old_jokers ? gaps - 1 : old_jokers);
            }
            if (count >= 2) return length;
        }
    }
    return 0;
}

/* third_card.joker_third_masks: the shortest meld of a taken joker with two old cards, from
 * the masks of the cards held before the take (old_) and held now (pool_), when shorter
 * than below (else 0): each suit's windows are tried only while shorter than the best so
 * far, and a suit is passed by when its old cards and old jokers (counting at most one
 * less, with proxies at least one card less) cannot make two. */
static int joker_third(const int *old_suit, const int *pool_suit, const int *old_rank,
                       const int *pool_rank, int jokers, int old_jokers, int proxies,
                       int below) {
    int best = 0;
    for (int p = 0; p < RANKS; p++) {
        int old = old_rank[p];
        if (old & (old - 1)) return 3 < below ? 3 : 0;
        if (old && pool_rank[p] != old && jokers >= 2 && old_jokers >= 1) best = 4;
    }
    int limit = best && best < below ? best : below;
    for (int s = 0; s < SUITS; s++) {
        int old = old_suit[s], pool = pool_suit[s];
        if (bits(pool) < 2 || (pool == FULL && !proxies) || (!old && old_jokers < 2)
            || (!(old & (old - 1)) && old_jokers <= 0))
            continue;
        int seq = joker_sequence_third(old, pool, jokers < 6 ? jokers : 6,
                                       old_jokers < 2 ? old_jokers : 2, proxies, limit);
        if (seq) best = limit = seq;
    }
    return best < below ? best : 0;
}

/* The masks of the cards counts holds: each suit's positions, each rank position's suits. */
static void counts_masks(const int *counts, int *suit_masks, int *rank_masks) {
    memset(rank_masks, 0, RANKS * sizeof(int));
    for (int s = 0; s < SUITS; s++) {
        const int *suit = counts + s * RANKS;
        int mask = 0;
        for (int q = 0; q < RANKS; q++) {
            if (suit[q]) {
                mask |= 1 << q;
                rank_masks[q] |= 1 << s;
            }
        }
        suit_masks[s] = mask;
    }
}

/* solver._free_take_positions (no points due): a position whose taken card's shortest
 * third-card meld leaves a card, into out (newest first); how many. */
static int free_take_scan(const int *hand, const int *bank, int n_bank, int replace,
                          int *out) {
    int old_suit[SUITS], old_rank[RANKS], pool_suit[SUITS], pool_rank[RANKS];
    counts_masks(hand, old_suit, old_rank);
    memcpy(pool_suit, old_suit, sizeof(pool_suit));
    memcpy(pool_rank, old_rank, sizeof(pool_rank));
    int old_jokers = hand[CARDS], jokers = hand[CARDS], size = n_bank, found = 0;
    for (int k = 0; k < SLOTS; k++) size += hand[k];
    for (int i = n_bank - 1; i >= 0; i--) {
        int card = bank[i], shortest;
        if (card == CARDS) {
            jokers++;
            shortest = joker_third(old_suit, pool_suit, old_rank, pool_rank, jokers,
                                   old_jokers < jokers - 1 ? old_jokers : jokers - 1, replace,
                                   size - i);
        } else {
            int p = card % RANKS, s = card / RANKS;
            pool_suit[s] |= 1 << p;
            pool_rank[p] |= 1 << s;
            shortest = shortest_third(p, s, jokers, old_jokers, old_suit[s], old_rank[p],
                                      pool_suit[s], pool_rank[p], replace);
        }
        if (shortest && shortest < size - i) out[found++] = i;
    }
    return found;
}

/* solver.take_positions over checked arguments (hand and bank together within the counts a
 * search holds): the positions into out, newest first; how many, or -1 with an error set. */
static int melds_take_scan(const int *hand, const int *bank, int n_bank, int need,
                           int replace, int *out) {
    if (need <= 0) return free_take_scan(hand, bank, n_bank, replace, out);
    int old_suit[SUITS], old_rank[RANKS], pool_suit[SUITS], pool_rank[RANKS];
    counts_masks(hand, old_suit, old_rank);
    memcpy(pool_suit, old_suit, sizeof(pool_suit));
    memcpy(pool_rank, old_rank, sizeof(pool_rank));
    int after[SLOTS], taken[SLOTS] = {0};
    memcpy(after, hand, sizeof(after));
    int hand_size = 0, found = 0, status = 0, built = 0;
    for (int k = 0; k < SLOTS; k++) hand_size += hand[k];
    SearchObject search;
    memset(&search, 0, sizeof(search));
    for (int i = n_bank - 1; i >= 0 && status >= 0; i--) {
        int card = bank[i];
        after[card]++;
        taken[card]++;
        if (card != CARDS) {
            int p = card % RANKS, s = card / RANKS;
            pool_suit[s] |= 1 << p;
            pool_rank[p] |= 1 << s;
            if (!shortest_third(p, s, after[CARDS], hand[CARDS], old_suit[s], old_rank[p],
                                pool_suit[s], pool_rank[p], replace))
                continue;
        } else {
            int jokers = after[CARDS], old = jokers - taken[CARDS];
            if (!joker_third(old_suit, pool_suit, old_rank, pool_rank, jokers,
                             old < jokers - 1 ? old : jokers - 1, replace, RANKS + 1))
                continue;
        }
        if (!built) {
            int whole[SLOTS];
            memcpy(whole, hand, sizeof(whole));
            for (int j = 0; j < n_bank; j++) whole[bank[j]]++;
            built = 1;
            if (build_search(&search, whole, replace) < 0) {
                status = -1;
                break;
            }
            status = reach_counts(&search, whole, need, 1);
            if (status <= 0) break;  /* not even the whole bank with the hand is worth it */
        }
        status = melds_complete(&search, after, taken, card, need, 1,
                                hand_size + n_bank - i, 1, replace);
        if (status > 0) out[found++] = i;
    }
    PyMem_Free(search.options);
    PyMem_Free(search.memo);
    return status < 0 ? -1 : found;
}

/* completion.take_positions over checked arguments: the fast path, then the exact judge of
 * the candidates of completion._take_candidates it did not offer. offered: by position. */
static int exact_take_scan(const int *hand, const int *bank, int n_bank, int need,
                           const Compact *table, int n, int layout, int replace,
                           char *offered) {
    int out[MAX_BANK];
    int fast = melds_take_scan(hand, bank, n_bank, need, replace, out);
    if (fast < 0) return -1;
    for (int j = 0; j < fast; j++) offered[out[j]] = 1;
    int extra = 0;
    for (int m = 0; m < n; m++) extra += meld_jokers(&table[m]);
    if (replace && !extra) return 0;
    /* completion._take_candidates: some swap with the table, and room for the taken card's
     * meld with every table joker won */
    char winning[CARDS] = {0};
    int can_swap = !replace || any_swap(table, n, hand);
    for (int m = 0; m < n; m++) meld_winners(&table[m], winning);
    int bank_wins = 0;
    for (int j = 0; j < n_bank; j++)
        if (bank[j] != CARDS && winning[bank[j]]) bank_wins = 1;
    if (!can_swap && !bank_wins) return 0;
    int old_suit[SUITS], old_rank[RANKS], pool_suit[SUITS], pool_rank[RANKS];
    counts_masks(hand, old_suit, old_rank);
    memcpy(pool_suit, old_suit, sizeof(pool_suit));
    memcpy(pool_rank, old_rank, sizeof(pool_rank));
    int jokers = hand[CARDS], hand_size = 0, size;
    for (int k = 0; k < SLOTS; k++) hand_size += hand[k];
    size = hand_size;
    int by_swaps = replace && need <= 0 && layout;
    for (int i = n_bank - 1; i >= 0; i--) {
        int card = bank[i], candidate;
        size++;
        if (card == CARDS) {
            jokers++;
            candidate = can_swap;
        } else {
            int p = card % RANKS, s = card / RANKS;
            pool_suit[s] |= 1 << p;
            pool_rank[p] |= 1 << s;
            if (winning[card]) can_swap = 1;
            int shortest = can_swap ? shortest_third(p, s, jokers + extra, hand[CARDS],
                                                     old_suit[s], old_rank[p], pool_suit[s],
                                                     pool_rank[p], 1) : 0;
            candidate = 0 < shortest && shortest < size;
        }
        if (!candidate || offered[i]) continue;
        Turn t;
        t.hand_arg = t.notold_arg = t.table_arg = NULL;
        memcpy(t.hand, hand, sizeof(t.hand));
        memset(t.notold, 0, sizeof(t.notold));
        for (int j = i; j < n_bank; j++) {
            t.hand[bank[j]]++;
            t.notold[bank[j]]++;
        }
        int ok;
        if (by_swaps && card != CARDS) {
            /* completion.swap_third_length over the table's melds with jokers */
            Compact with[MAX_TABLE];
            int n_with = 0;
            for (int m = 0; m < n; m++)
                if (meld_jokers(&table[m])) with[n_with++] = table[m];
            int best = card_third(t.hand, t.notold, card, 0, 1);
            if (any_swap(with, n_with, t.hand)
                && swap_states_third(t.hand, t.notold, with, n_with, card, 0, &best) < 0)
                return -1;
            ok = 0 < best && best < hand_size + n_bank - i;
        } else {
            t.card = card;
            t.need = need;
            t.pending = 1;
            t.layout = layout;
            t.replace = replace;
            memcpy(t.table, table, sizeof(Compact) * (size_t)n);
            t.n = n;
            ok = judge(&t, replace);
            if (ok < 0) return -1;
        }
        if (ok) offered[i] = 1;
    }
    return 0;
}

/* A bank argument: a list of at most MAX_BANK cards (0..52) read into bank, which with the
 * hand holds at most MAX_COPIES of a card and MAX_JOKERS jokers (what a search holds). */
static int read_bank(PyObject *arg, const int *hand, int *bank, int *n_bank) {
    if (!PyList_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "bank must be a list of cards, not %.100s",
                     Py_TYPE(arg)->tp_name);
        return -1;
    }
    Py_ssize_t size = PyList_GET_SIZE(arg);
    if (size > MAX_BANK) {
        PyErr_Format(PyExc_ValueError, "bank has %zd cards, more than %d", size, MAX_BANK);
        return -1;
    }
    int whole[SLOTS];
    memcpy(whole, hand, sizeof(whole));
    /* Reading an int runs no Python code, so the list cannot change while it is read. */
    for (Py_ssize_t i = 0; i < size; i++) {
        if (int_in(PyList_GET_ITEM(arg, i), 0, CARDS, "bank card", i, &bank[i]) < 0) return -1;
        int c = bank[i];
        if (++whole[c] > (c < CARDS ? MAX_COPIES : MAX_JOKERS)) {
            PyErr_Format(PyExc_ValueError, "bank card %zd (%d) makes %d of it with the hand, "
                         "more than %d", i, c, whole[c], c < CARDS ? MAX_COPIES : MAX_JOKERS);
            return -1;
        }
    }
    *n_bank = (int)size;
    return 0;
}

PyDoc_STRVAR(take_positions_doc,
"take_positions(hand, bank, need, table, layout, replace) -> list[int]\n\n"
"The bank positions hand may take the bank from, in order: with table None,\n"
"solver.take_positions (melds alone; its reference solver.reference_take_positions), else\n"
"completion.take_positions (exact, with swaps; completion.reference_take_positions). hand:\n"
"a list of 53 counts; bank: a list of cards 0..52, with the hand at most 3 copies of a card\n"
"and 7 jokers; need within 2**30; table None or a tuple of compact melds; layout and\n"
"replace bools. Bad input raises TypeError or ValueError.");

static PyObject *take_positions(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *hand_arg, *bank_arg, *need_arg, *table_arg, *layout_arg, *replace_arg;
    int hand[SLOTS], bank[MAX_BANK], n_bank, need, layout, replace, n = 0;
    Compact table[MAX_TABLE];
    if (!PyArg_ParseTuple(args, "OOOOOO:take_positions", &hand_arg, &bank_arg, &need_arg,
                          &table_arg, &layout_arg, &replace_arg))
        return NULL;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "configure() was not called");
        return NULL;
    }
    int exact = table_arg != Py_None;
    if (exact && search_steps == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "configure_judge() was not called");
        return NULL;
    }
    if (read_hand(hand_arg, "hand", hand) < 0 || read_bank(bank_arg, hand, bank, &n_bank) < 0
        || int_in(need_arg, -BOUND, BOUND, "need", -1, &need) < 0
        || (exact && read_table(table_arg, table, &n) < 0)
        || bool_arg(layout_arg, "layout", &layout) < 0
        || bool_arg(replace_arg, "replace", &replace) < 0)
        return NULL;
    int bank_jokers = 0;
    for (int i = 0; i < n_bank; i++) bank_jokers += bank[i] == CARDS;
    if (exact && jokers_fit(hand, bank_jokers, table, n) < 0) return NULL;
    char offered[MAX_BANK] = {0};
    if (exact) {
        if (exact_take_scan(hand, bank, n_bank, need, table, n, layout, replace, offered) < 0)
            return NULL;
    } else {
        int out[MAX_BANK];
        int found = melds_take_scan(hand, bank, n_bank, need, replace, out);
        if (found < 0) return NULL;
        for (int j = 0; j < found; j++) offered[out[j]] = 1;
    }
    PyObject *list = PyList_New(0);
    if (list == NULL) return NULL;
    for (int i = 0; i < n_bank; i++) {
        if (!offered[i]) continue;
        PyObject *position = PyLong_FromLong(i);
        if (position == NULL || PyList_Append(list, position) < 0) {
            Py_XDECREF(position);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(position);
    }
    return list;
}

PyDoc_STRVAR(configure_judge_doc,
"configure_judge(search)\n\n"
"The Python part completable() asks: completion.search_completion (a callable). Forgets\n"
"the judged states.");

static PyObject *configure_judge(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *search;
    if (!PyArg_ParseTuple(args, "O:configure_judge", &search)) return NULL;
    if (!PyCallable_Check(search)) {
        PyErr_SetString(PyExc_TypeError, "configure_judge() takes a callable");
        return NULL;
    }
    if (judge_memo == NULL && (judge_memo = PyDict_New()) == NULL) return NULL;
    PyDict_Clear(judge_memo);
    Py_INCREF(search);
    Py_XSETREF(search_steps, search);
    Py_RETURN_NONE;
}

PyDoc_STRVAR(forget_judged_doc,
"forget_judged() -> int\n\nEmpties completable()'s memo; returns how many states it held.");

static PyObject *forget_judged(PyObject *module, PyObject *unused) {
    (void)module;
    (void)unused;
    if (judge_memo == NULL) return PyLong_FromLong(0);
    Py_ssize_t held = PyDict_GET_SIZE(judge_memo);
    PyDict_Clear(judge_memo);
    return PyLong_FromSsize_t(held);
}

PyDoc_STRVAR(shortest_third_doc,
"shortest_third(p, s, jokers, old_jokers, old_suit, old_rank, pool_suit, pool_rank,\n"
"               proxies) -> int\n\n"
"third_card.shortest_third as completable() computes it (p 0..12, s 0..3, jokers 0..99,\n"
"old_jokers -99..99, suit masks 13 bits, rank masks 4 bits).");

static PyObject *shortest_third_py(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *items[8];
    int v[8], proxies;
    if (!PyArg_ParseTuple(args, "OOOOOOOOp:shortest_third", &items[0], &items[1], &items[2],
                          &items[3], &items[4], &items[5], &items[6], &items[7], &proxies))
        return NULL;
    static const char *what[8] = {"p", "s", "jokers", "old_jokers", "old_suit", "old_rank",
                                  "pool_suit", "pool_rank"};
    static const long low[8] = {0, 0, 0, -99, 0, 0, 0, 0};
    static const long high[8] = {RANKS - 1, SUITS - 1, 99, 99, FULL, (1 << SUITS) - 1, FULL,
                                 (1 << SUITS) - 1};
    for (int i = 0; i < 8; i++)
        if (int_in(items[i], low[i], high[i], what[i], -1, &v[i]) < 0) return NULL;
    return PyLong_FromLong(shortest_third(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7],
                                          proxies));
}

/* ------------------------------------------------------------------ the opening melds
 * The verdicts on the melds of a legal list after a take while opening points are due
 * (LegalSteps._count_taken_actions with the completion judges; its reference,
 * LegalSteps.reference_opening_melds): a meld is legal exactly when it leaves a card and
 * the turn can still be completed after it, by melds alone (solver.can_complete after the
 * meld, the fast judge: LegalSteps._completes_after_meld) or else by any steps (the judge,
 * completion.completable, as LegalSteps.completes_after_step asks it), after the quick
 * sufficient test of one swap then melds alone (LegalSteps._won_back_completes). The
 * reference's other quick tests (a known completion that survives the meld, the step
 * filter's rejections) are sufficient or exact, so they change no verdict and are not run
 * here (the judge's own first checks are the step filter's). */

/* third_card.is_third_card_meld of a meld's cards (removed; 52 a joker) laid from hand, the
 * taken card a joker (52) or not (cards_third). */
static int meld_third(const int *removed, int n, int card, const int *hand,
                      const int *notold) {
    if (card != CARDS) return cards_third(removed, n, card, hand, notold);
    int old = 0, jokers = 0;
    for (int i = 0; i < n; i++) {
        int k = removed[i];
        if (k == CARDS) jokers++;
        else if (hand[k] > notold[k]) old++;
    }
    if (!jokers) return 0;
    jokers--;                  /* the taken joker itself */
    int old_jokers = hand[CARDS] - notold[CARDS];
    if (hand[CARDS] - 1 < old_jokers) old_jokers = hand[CARDS] - 1;
    if (jokers > old_jokers) jokers = old_jokers;
    return old + (jokers > 0 ? jokers : 0) >= 2;
}

/* melds.slot_value summed over a meld read_meld has checked (a joker worth its card). */
static int meld_points(PyObject *m) {
    int points = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(m); i++) {
        long x = PyLong_AsLong(PyTuple_GET_ITEM(m, i));
        points += x < CARDS ? value[x] : x == CARDS ? 10
            : x < OPEN_JOKER ? value[x - JOKER_FOR] : position_value[x - OPEN_JOKER];
    }
    return points;
}

/* LegalSteps._won_back_completes of a meld (joker_for_held; not while a taken joker is to be
 * melded): a quick sufficient test that once the meld is laid (leaving rest, rest_notold;
 * need points due, pending as given) one swap of a card left for a joker it laid or a table
 * joker, then melds alone (search: the turn's), complete the turn. 1, 0, or -1 with an
 * exception set. */
static int won_back_reached(const Turn *t, const int *rest, const int *rest_notold,
                            const char *winning, int need, int pending, SearchObject *search);

static int won_back_completes(const Turn *t, const int *rest, const int *rest_notold,
                              const Compact *laid, int need, int pending,
                              SearchObject *search) {
    if (!t->replace || (t->pending && t->card == CARDS) || rest[CARDS] >= MAX_JOKERS
        || rest_notold[CARDS] >= MAX_JOKERS)
        return 0;            /* (a joker more than a hand code holds: left to the judge) */
    char winning[SLOTS] = {0};
    meld_winners(laid, winning);
    for (int i = 0; i < t->n; i++) meld_winners(&t->table[i], winning);
    return won_back_reached(t, rest, rest_notold, winning, need, pending, search);
}

/* The loop of won_back_completes: whether one swap of a card of rest marked in winning for a
 * joker, then melds alone, complete the turn. 1, 0, or -1 with an exception set. */
static int won_back_reached(const Turn *t, const int *rest, const int *rest_notold,
                            const char *winning, int need, int pending, SearchObject *search) {
    int size = 0;
    for (int k = 0; k < SLOTS; k++) size += rest[k];
    for (int k = 0; k < CARDS; k++) {
        if (!winning[k] || !rest[k]) continue;
        int after[SLOTS], after_notold[SLOTS];
        memcpy(after, rest, sizeof(after));
        memcpy(after_notold, rest_notold, sizeof(after_notold));
        after[k]--;
        if (after_notold[k]) after_notold[k]--;
        after[CARDS]++;
        after_notold[CARDS]++;
        int ok = melds_complete(search, after, after_notold, t->card, need, pending, size, 0, 1);
        if (ok != 0) return ok;
    }
    return 0;
}

/* The twelfth slice's fast judge (LegalSteps._third_card_judges, solver.ThirdCardCheck):
 * whether the shortest third-card meld of the hand rest (rest_notold: its cards not held
 * before the take) leaves a card of the left it holds (third_length). */
static int third_fits(const int *rest, const int *rest_notold, int card, int left,
                      int replace) {
    int length = third_length(rest, rest_notold, card, replace);
    return 0 < length && length < left;
}

/* Whether the turn t (checked) can still be completed after laying a meld (its cards
 * removed, n of them, its compact form laid, its points; pending: the taken card still to be
 * melded after it): melds alone first (LegalSteps._completes_after_meld, with search over
 * the hand and size cards held; third: the third-card length instead, third_fits), then one
 * swap and melds alone (won_back_completes), then the judge
 * (LegalSteps.completes_after_step). 1, 0, or -1 with an exception set. */
static int meld_completes(const Turn *t, const int *removed, int n, const Compact *laid,
                          int points, int opening, int pending, SearchObject *search,
                          int size, int third) {
    int need = opening ? t->need - points : 0;
    if (!pending && need <= 0) return 1;     /* the caller keeps a card to discard */
    int rest[SLOTS], rest_notold[SLOTS], jokers = 0;
    memcpy(rest, t->hand, sizeof(rest));
    memcpy(rest_notold, t->notold, sizeof(rest_notold));
    for (int i = 0; i < n; i++) {
        rest[removed[i]]--;
        if (rest_notold[removed[i]]) rest_notold[removed[i]]--;
        jokers += removed[i] == CARDS;
    }
    int ok = third ? third_fits(rest, rest_notold, t->card, size - n, t->replace)
        : melds_complete(search, rest, rest_notold, t->card, need, pending, size - n, 0,
                         t->replace);
    if (ok != 0) return ok;
    ok = won_back_completes(t, rest, rest_notold, laid, opening ? t->need - points : t->need,
                            pending, search);
    if (ok != 0) return ok;
    if (t->replace && !jokers && !any_swap(t->table, t->n, t->hand))
        return 0;            /* no joker to swap, ever: melds alone decide, and they cannot */
    Turn next = *t;
    next.hand_arg = next.notold_arg = next.table_arg = NULL;
    int keep = t->card == CARDS;   /* a joker laid is a new one first; the taken one stays */
    for (int i = 0; i < n; i++) {
        int k = removed[i];
        next.hand[k]--;
        if (next.notold[k] > (k == CARDS ? keep : 0)) next.notold[k]--;
    }
    next.need = opening ? t->need - points : t->need;
    next.pending = pending;
    next.layout = 1;
    next.table[next.n++] = *laid;
    return judge(&next, 1);
}

/* The melds of melds_arg (a list, each meld checked before use) leaving a card of the
 * size held after which meld_completes (third: with the third-card length) says the turn t
 * (checked) can still be completed: a new list of the same objects, in order, or NULL with
 * an exception set. The judge runs Python parts: the list and each meld are held while it
 * does, and the list is read item by item. */
static PyObject *judged_melds(const Turn *t, PyObject *melds_arg, int size, int opening,
                              SearchObject *search, int third) {
    if (!PyList_Check(melds_arg)) {
        PyErr_Format(PyExc_TypeError, "melds must be a list of melds, not %.100s",
                     Py_TYPE(melds_arg)->tp_name);
        return NULL;
    }
    Py_INCREF(melds_arg);
    PyObject *out = PyList_New(0);
    for (Py_ssize_t i = 0; out != NULL && i < PyList_GET_SIZE(melds_arg); i++) {
        PyObject *m = PyList_GET_ITEM(melds_arg, i);
        Py_INCREF(m);
        int removed[MELD_MAX];
        Compact laid;
        int length = read_meld(m, i, t->hand, removed, &laid), verdict = 0;
        if (length < 0) {
            verdict = -1;
        } else if (length < size) {
            int pending = t->pending && !meld_third(removed, length, t->card, t->hand,
                                                    t->notold);
            verdict = meld_completes(t, removed, length, &laid, opening ? meld_points(m) : 0,
                                     opening, pending, search, size, third);
        }
        if (verdict < 0 || (verdict && PyList_Append(out, m) < 0)) Py_CLEAR(out);
        Py_DECREF(m);
    }
    Py_DECREF(melds_arg);
    return out;
}

PyDoc_STRVAR(opening_melds_doc,
"opening_melds(hand, notold, card, need, pending, opening, table, replace, melds, size,\n"
"              search) -> list[tuple[int, ...]]\n\n"
"The melds of melds (candidate melds in canonical form, laid from hand) that a legal list\n"
"after a take offers while opening points are due (LegalSteps.reference_opening_melds in\n"
"C), in order, the same objects: those leaving a card after which the turn can still be\n"
"completed. hand, notold: lists of 53 counts; card 0..52 (52: the taken joker); need and\n"
"size (the hand's size) within 2**30; pending, opening, replace: bools; table: a tuple of\n"
"compact melds; search: None or the Search of the hand (built here when None). Bad input\n"
"raises TypeError or ValueError.");

static PyObject *opening_melds(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *card_arg, *need_arg, *pending_arg, *opening_arg, *replace_arg, *melds_arg;
    PyObject *size_arg, *search_arg;
    Turn t;
    int opening, size;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOO:opening_melds", &t.hand_arg, &t.notold_arg,
                          &card_arg, &need_arg, &pending_arg, &opening_arg, &t.table_arg,
                          &replace_arg, &melds_arg, &size_arg, &search_arg))
        return NULL;
    if (read_turn(&t, card_arg, need_arg, replace_arg) < 0
        || bool_arg(pending_arg, "pending", &t.pending) < 0
        || bool_arg(opening_arg, "opening", &opening) < 0
        || int_in(size_arg, -BOUND, BOUND, "size", -1, &size) < 0)
        return NULL;
    t.layout = 0;
    if (!PyList_Check(melds_arg)) {
        PyErr_Format(PyExc_TypeError, "melds must be a list of melds, not %.100s",
                     Py_TYPE(melds_arg)->tp_name);
        return NULL;
    }
    SearchObject made, *search;
    if (read_search(search_arg, &search) < 0) return NULL;
    if (search == NULL) {
        memset(&made, 0, sizeof(made));
        if (build_search(&made, t.hand, t.replace) < 0) {
            PyMem_Free(made.options);
            return NULL;
        }
        search = &made;
    }
    if (search_arg != Py_None) Py_INCREF(search_arg);   /* held while the judge runs */
    PyObject *out = judged_melds(&t, melds_arg, size, opening, search, 0);
    if (search_arg == Py_None) {
        PyMem_Free(made.options);
        PyMem_Free(made.memo);
    } else {
        Py_DECREF(search_arg);
    }
    return out;
}

/* The lay-offs of a legal list after a take while opening points are due, without a layout
 * (LegalSteps._count_taken_actions; its reference, LegalSteps.reference_opening_layoffs):
 * each (hand card, slot) of each table meld's lay-off options (TableMeld.layoff_options,
 * read off its compact form in the same order) that the hand holds, kept when melds alone
 * complete the turn without the card (LegalSteps._completes_after_removal; by card), else
 * when the judge says so after it (LegalSteps.completes_after_step; by card for a real card
 * laid off onto a meld whose swaps it leaves as they are). The reference's step filter is
 * exact and its one-swap test needs a layout: neither changes a verdict here. */

#define MAX_LAYOFFS 6          /* a meld's lay-off options: 4 suits and a joker, or 2 ends and
                                * 2 jokers */

/* TableMeld.layoff_options of the compact meld m: (hand card, slot) pairs into options; how
 * many. */
static int compact_layoffs(const Compact *m, int options[][2]) {
    int n = 0;
    if (m->kind == 1) {
        int size = bits(m->b) + bits(m->c) + m->d;
        if (size >= SUITS) return 0;
        for (int s = 0; s < SUITS; s++) {
            if (!((m->b | m->c) >> s & 1)) {
                options[n][0] = options[n][1] = s * RANKS + m->a;
                n++;
            }
        }
        if ((bits(m->c) + m->d + 1) * 2 <= size + 1) {
            options[n][0] = CARDS;
            options[n][1] = OPEN_JOKER + m->a;
            n++;
        }
        return n;
    }
    if (m->c >= RANKS) return 0;
    int left = m->a * RANKS + (m->b + RANKS - 1) % RANKS;
    int right = m->a * RANKS + (m->b + m->c) % RANKS;
    options[n][0] = options[n][1] = left;
    n++;
    if (right != left) {
        options[n][0] = options[n][1] = right;
        n++;
    }
    if ((bits(m->d) + 1) * 2 <= m->c + 1) {
        options[n][0] = CARDS;
        options[n][1] = JOKER_FOR + left;
        n++;
        if (right != left) {
            options[n][0] = CARDS;
            options[n][1] = JOKER_FOR + right;
            n++;
        }
    }
    return n;
}

/* LegalSteps._won_back_completes of a lay-off (a layout, joker_for_held; not while a taken
 * joker is to be melded): a quick sufficient test that once the card k is laid off as slot
 * onto the meld number, one swap of a card left for the joker it laid (the card it stands
 * for, or a suit the set's real cards lack) or for a joker of another table meld, then melds
 * alone (search: the turn's), complete the turn. 1, 0, or -1 with an exception set. */
static int layoff_won_back(const Turn *t, int k, int slot, int number, SearchObject *search) {
    if (!t->replace || !t->layout || (t->pending && t->card == CARDS)) return 0;
    int rest[SLOTS], rest_notold[SLOTS];
    memcpy(rest, t->hand, sizeof(rest));
    memcpy(rest_notold, t->notold, sizeof(rest_notold));
    rest[k]--;
    if (rest_notold[k]) rest_notold[k]--;
    if (rest[CARDS] >= MAX_JOKERS || rest_notold[CARDS] >= MAX_JOKERS)
        return 0;            /* (a joker more than a hand code holds: left to the judge) */
    char winning[SLOTS] = {0};
    const Compact *m = &t->table[number];
    if (slot >= JOKER_FOR && slot < OPEN_JOKER) {
        winning[slot - JOKER_FOR] = 1;
    } else if (slot >= OPEN_JOKER) {
        for (int s = 0; s < SUITS; s++)
            if (!(m->b >> s & 1)) winning[s * RANKS + slot - OPEN_JOKER] = 1;
    }
    for (int i = 0; i < t->n; i++)
        if (i != number) meld_winners(&t->table[i], winning);
    return won_back_reached(t, rest, rest_notold, winning, t->need, t->pending, search);
}

/* Whether the turn t (checked) can still be completed after laying off the card k as slot
 * onto its meld number (after: that meld then): with a layout one swap and melds alone first
 * (layoff_won_back), then the judge, after LegalSteps.completes_after_step's no-swap
 * shortcut. 1, 0, or -1 with an exception set. */
static int layoff_judged(const Turn *t, int k, int slot, int number, const Compact *after,
                         SearchObject *search) {
    int ok = layoff_won_back(t, k, slot, number, search);
    if (ok != 0) return ok;
    if (t->replace && slot < CARDS && !any_swap(t->table, t->n, t->hand)) return 0;
    Turn next = *t;
    next.hand_arg = next.notold_arg = next.table_arg = NULL;
    next.hand[k]--;
    if (next.notold[k] > (k == CARDS && t->card == CARDS ? 1 : 0)) next.notold[k]--;
    next.table[number] = *after;
    return judge(&next, 1);
}

/* The legal lay-offs (meld number, slot) of the turn t (checked) onto its table, in order:
 * each table meld's lay-off options the hand holds, kept when melds alone complete the turn
 * without the card (by card; size > 0: when the third-card length of the hand without it
 * leaves a card of the size - 1 left, third_fits), else when layoff_judged says so (by card
 * for a real card laid off onto a meld whose swaps it leaves as they are). A new list, or
 * NULL with an exception set. */
static PyObject *points_layoffs(const Turn *t, SearchObject *search, int size) {
    signed char fast[SLOTS], exact[SLOTS];       /* verdicts by card, -1: not yet asked */
    memset(fast, -1, sizeof(fast));
    memset(exact, -1, sizeof(exact));
    PyObject *out = PyList_New(0);
    for (int i = 0; out != NULL && i < t->n; i++) {
        const Compact *m = &t->table[i];
        int same_swaps = t->replace && (!meld_jokers(m) || m->kind == 0);
        int options[MAX_LAYOFFS][2];
        int n_options = compact_layoffs(m, options);
        for (int j = 0; j < n_options; j++) {
            int k = options[j][0], slot = options[j][1];
            if (!t->hand[k] || (slot >= JOKER_FOR && slot < OPEN_JOKER && !t->replace
                                && t->hand[slot - JOKER_FOR]))
                continue;
            int ok = fast[k];
            if (ok < 0) {
                int rest[SLOTS], rest_notold[SLOTS];
                memcpy(rest, t->hand, sizeof(rest));
                memcpy(rest_notold, t->notold, sizeof(rest_notold));
                rest[k]--;
                if (rest_notold[k]) rest_notold[k]--;
                ok = fast[k] = (signed char)(size > 0
                    ? third_fits(rest, rest_notold, t->card, size - 1, t->replace)
                    : melds_complete(search, rest, rest_notold, t->card, t->need, t->pending,
                                     -1, 0, t->replace));
            }
            Compact after;
            if (ok == 0 && laid_off(m, slot, &after) < 0) {
                PyErr_Format(PyExc_ValueError, "table meld %d: no lay-off of slot %d", i, slot);
                ok = -1;
            }
            if (ok == 0) {
                if (same_swaps && slot < CARDS) {
                    ok = exact[k];
                    if (ok < 0)
                        ok = exact[k] = (signed char)layoff_judged(t, k, slot, i, &after, search);
                } else {
                    ok = layoff_judged(t, k, slot, i, &after, search);
                }
            }
            if (ok < 0) {
                Py_CLEAR(out);
                break;
            }
            if (ok) {
                PyObject *pair = int_pair(i, slot);
                if (pair == NULL || PyList_Append(out, pair) < 0) Py_CLEAR(out);
                Py_XDECREF(pair);
            }
        }
    }
    return out;
}

/* opening_layoffs and layout_layoffs: their arguments read and checked, then points_layoffs
 * with the turn's layout as given (the argument list's name in format). */
static PyObject *layoffs_call(PyObject *args, const char *format, int layout) {
    PyObject *card_arg, *need_arg, *pending_arg, *replace_arg, *search_arg;
    Turn t;
    if (!PyArg_ParseTuple(args, format, &t.hand_arg, &t.notold_arg, &card_arg, &need_arg,
                          &pending_arg, &t.table_arg, &replace_arg, &search_arg))
        return NULL;
    SearchObject *search;
    if (read_turn(&t, card_arg, need_arg, replace_arg) < 0
        || bool_arg(pending_arg, "pending", &t.pending) < 0
        || read_search(search_arg, &search) < 0)
        return NULL;
    t.layout = layout;
    if (search != NULL) Py_INCREF(search_arg);   /* held while the judge runs Python parts */
    PyObject *out = points_layoffs(&t, search, 0);
    if (search != NULL) Py_DECREF(search_arg);
    return out;
}

PyDoc_STRVAR(opening_layoffs_doc,
"opening_layoffs(hand, notold, card, need, pending, table, replace, search)\n"
"    -> list[tuple[int, int]]\n\n"
"The lay-offs (meld number, slot) that a legal list after a take offers while opening\n"
"points are due, without a layout (LegalSteps.reference_opening_layoffs in C), in order:\n"
"those after which the turn can still be completed. table: every table meld, compact, in\n"
"order; the other arguments as opening_melds'. Bad input raises TypeError or ValueError.");

static PyObject *opening_layoffs(PyObject *module, PyObject *args) {
    (void)module;
    return layoffs_call(args, "OOOOOOOO:opening_layoffs", 0);
}

/* The ninth slice: the same lay-offs with a layout (LegalSteps.reference_layout_layoffs),
 * where the reference's exact judge first tries one swap after the lay-off
 * (layoff_won_back). */

PyDoc_STRVAR(layout_layoffs_doc,
"layout_layoffs(hand, notold, card, need, pending, table, replace, search)\n"
"    -> list[tuple[int, int]]\n\n"
"The lay-offs (meld number, slot) that a legal list after a take offers while opening\n"
"points are due, with a layout (LegalSteps.reference_layout_layoffs in C), in order: those\n"
"after which the turn can still be completed. The arguments as opening_layoffs'. Bad input\n"
"raises TypeError or ValueError.");

static PyObject *layout_layoffs(PyObject *module, PyObject *args) {
    (void)module;
    return layoffs_call(args, "OOOOOOOO:layout_layoffs", 1);
}

/* ------------------------------------------------------------------ the candidate melds
 *
 * LegalSteps.candidate_melds (every meld the hand may lay now: hand_melds.hand_melds, then
 * each set of three with its open joker's suit declared) runs here over the groups the
 * search lists (group_of), each group's melds kept as ready Python tuples beside its
 * options, so a group costs one look-up and its tuples are shared as hand_melds' caches
 * share theirs. LegalSteps.reference_candidate_melds is the reference; the tests compare
 * both. */

#define JOKER_FOR_SLOT 53      /* melds.JOKER_FOR: a joker standing for card k is 53 + k */
#define OPEN_JOKER_SLOT 105    /* melds.OPEN_JOKER: an open set joker of position p, 105 + p */

/* The slots of an option of a group of place (a rank position for a set, else a suit) as
 * a tuple: a set's real cards then its open jokers; a sequence's window, a real card where
 * it is among the reals, else a joker standing for it. */
static PyObject *option_slots(const Option *o, int is_set, int place) {
    uint8_t slots[RANKS];      /* a slot is below OPEN_JOKER_SLOT + RANKS */
    int n = 0;
    if (is_set) {
        for (int r = 0; r < o->n_reals; r++) slots[n++] = o->reals[r];
        for (int j = 0; j < o->used; j++) slots[n++] = (uint8_t)(OPEN_JOKER_SLOT + place);
    } else {
        for (int i = 0, r = 0; i < o->length; i++) {
            int card = place * RANKS + (o->start + i) % RANKS;
            if (r < o->n_reals && o->reals[r] == card) {
                slots[n++] = (uint8_t)card;
                r++;
            } else {
                slots[n++] = (uint8_t)(JOKER_FOR_SLOT + card);
            }
        }
    }
    return int_tuple(slots, n);
}

/* A group's melds as a tuple of slot tuples (borrowed), made the first time. */
static PyObject *group_melds(Group *group, int is_set, int place) {
    if (group->melds != NULL) return group->melds;
    PyObject *melds = PyTuple_New(group->n);
    if (melds == NULL) return NULL;
    for (Py_ssize_t i = 0; i < group->n; i++) {
        PyObject *slots = option_slots(&group->options[i], is_set, place);
        if (slots == NULL) {
            Py_DECREF(melds);
            return NULL;
        }
        PyTuple_SET_ITEM(melds, i, slots);
    }
    group->melds = melds;
    return melds;
}

/* Append to out the declared readings of a set of three with an open joker (option o of
 * rank position place): its joker standing for each suit its two cards lack, where the
 * hand holds no such card or replace. */
static int append_declared(PyObject *out, const Option *o, int place, const int *counts,
                           int replace) {
    if (o->n_reals != 2 || o->used != 1) return 0;
    for (int t = 0; t < SUITS; t++) {
        int card = t * RANKS + place;
        if (card == o->reals[0] || card == o->reals[1] || (!replace && counts[card])) continue;
        PyObject *variant = Py_BuildValue("(iii)", o->reals[0], o->reals[1],
                                          JOKER_FOR_SLOT + card);
        if (variant == NULL) return -1;
        int failed = PyList_Append(out, variant);
        Py_DECREF(variant);
        if (failed) return -1;
    }
    return 0;
}

PyDoc_STRVAR(candidate_melds_doc,
"candidate_melds(counts, replace) -> list\n\n"
"Every meld a hand may lay now (LegalSteps.candidate_melds; its reference,\n"
"LegalSteps.reference_candidate_melds): hand_melds.hand_melds(counts, replace), then each\n"
"set of three with its open joker's suit declared, where the hand holds no card of that\n"
"suit or replace (rule option joker_for_held). counts: 53 counts (cards at most 3, jokers\n"
"at most 7); replace: a bool. Bad input raises TypeError or ValueError.");

static PyObject *candidate_melds(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *counts_arg, *replace_arg;
    int counts[SLOTS], replace;
    if (!PyArg_ParseTuple(args, "OO:candidate_melds", &counts_arg, &replace_arg)) return NULL;
    if (read_counts(counts_arg, counts) < 0 || bool_arg(replace_arg, "replace", &replace) < 0)
        return NULL;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "configure() was not called");
        return NULL;
    }
    if (groups_used > GROUP_LIMIT && !groups_held) groups_clear();
    int jokers = counts[CARDS];
    int suit_masks[SUITS], rank_masks[RANKS];
    counts_masks(counts, suit_masks, rank_masks);
    /* Each rank's sets, then each suit's sequences, as build_search reads the groups (a
     * group's tuple stays while no group is emptied, that is until the next call). */
    PyObject *group_tuples[MAX_GROUPS];
    int set_groups[RANKS], n_groups = 0, n_set_groups = 0;
    Py_ssize_t total = 0;
    for (int place = 0; place < RANKS + SUITS; place++) {
        int is_set = place < RANKS;
        int mask = is_set ? rank_masks[place] : suit_masks[place - RANKS];
        if (is_set ? !(mask & (mask - 1)) : !mask) continue;
        int kind = is_set ? 0 : replace && jokers ? 2 : 1;
        int cap = is_set ? SET_JOKERS : SEQUENCE_JOKERS;
        int at = is_set ? place : place - RANKS;
        Group *group = (Group *)group_of(kind, at, mask, jokers < cap ? jokers : cap);
        PyObject *melds = group == NULL ? NULL : group_melds(group, is_set, at);
        if (melds == NULL) return NULL;
        group_tuples[n_groups++] = melds;
        total += PyTuple_GET_SIZE(melds);
        if (is_set) set_groups[n_set_groups++] = place;
    }
    PyObject *out = PyList_New(total);
    if (out == NULL) return NULL;
    for (int g = 0, at = 0; g < n_groups; g++) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(group_tuples[g]); i++) {
            PyObject *meld = PyTuple_GET_ITEM(group_tuples[g], i);
            Py_INCREF(meld);
            PyList_SET_ITEM(out, at++, meld);
        }
    }
    for (int g = 0; jokers && g < n_set_groups; g++) {
        int place = set_groups[g];
        const Group *group = group_of(0, place, rank_masks[place],
                                      jokers < SET_JOKERS ? jokers : SET_JOKERS);
        for (Py_ssize_t i = 0; group != NULL && i < group->n; i++) {
            if (append_declared(out, &group->options[i], place, counts, replace) < 0) {
                group = NULL;
                break;
            }
        }
        if (group == NULL) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

/* ------------------------------------------------------------------ joker identity
 * LegalSteps.identity_completes (its reference, LegalSteps.reference_identity_completes):
 * whether a take turn whose taken card is still to be melded can be completed after a step
 * (a meld, a lay-off, a swap) with each joker kept as what it is (RULES.md: a joker keeps its
 * identity through the turn). The turn after the step is made here as Applying.push makes
 * it (the hand, its cards not held before the take, the points due, whether the taken card
 * is still to be melded, the layout, the table and the turn's joker marks: a joker held
 * before the take, or the taken joker, laid outside the taken card's meld is marked, and a
 * swap that wins a marked joker gives it back as what it was), without a copy of the deal;
 * then completion.completable_marked runs here over the judge. */

#define MARKS_MAX 8            /* marks given: a hand lays at most MAX_JOKERS jokers */
#define MARKS_ROOM (MARKS_MAX + MELD_MAX)
#define MARK_TAKEN 1           /* deal_fields.MARK_TAKEN */
#define SET_JOKER CARDS        /* deal_fields.SET_JOKER: a mark's key in a set */

static int marked_judge(const Turn *t, const int *marks, int n_marks);

/* A copy of turn t for a turn made here (the judge builds its Python objects anew). */
static void made_turn(const Turn *t, Turn *next) {
    *next = *t;
    next->hand_arg = next->notold_arg = next->table_arg = NULL;
}

static int any_taken_mark(const int *marks, int n_marks) {
    for (int j = 0; j < n_marks; j++)
        if (marks[j] & MARK_TAKEN) return 1;
    return 0;
}

/* completion.completable_marked without a layout: a meld first (not the taken card's,
 * which the judge tried, nor one laying the taken joker), then with a layout. The groups
 * read stay listed while it runs (groups_held). 1, 0, or -1 with an exception set. */
static int marked_meld_first(const Turn *t, const int *marks, int n_marks, int taken_out,
                             int size, Turn *next) {
    if (t->n >= TABLE_ROOM) {
        PyErr_SetString(PyExc_ValueError, "the search laid more melds than a hand holds");
        return -1;
    }
    const Option *options[MELD_GROUPS];
    Py_ssize_t sizes[MELD_GROUPS];
    groups_held++;
    int ok = 0;
    int n = card_groups(t->hand, CARDS, t->replace, options, sizes);
    if (n < 0) ok = -1;
    for (int g = 0; g < n && !ok; g++) {
        for (Py_ssize_t i = 0; i < sizes[g] && !ok; i++) {
            const Option *o = &options[g][i];
            if (o->n_reals + o->used >= size
                || (!taken_out && (is_third(o, t->card, t->hand, t->notold)
                                   || (t->card == CARDS && o->used >= t->hand[CARDS]))))
                continue;
            lay_option(t, o, 1, next);
            if (taken_out && t->card == CARDS) {   /* completion._laid with no card kept */
                next->notold[CARDS] = t->notold[CARDS] - o->used;
                if (next->notold[CARDS] < 0) next->notold[CARDS] = 0;
            }
            ok = marked_judge(next, marks, n_marks);
        }
    }
    groups_held--;
    return ok;
}

/* completion.completable_marked with a layout: a marked joker won back at once, each
 * swap that wins it (a sequence's by its own card), given back as what it was. */
static int marked_swaps(const Turn *t, const int *marks, int n_marks, Turn *next) {
    int ok = 0;
    for (int j = 0; j < n_marks && !ok; j++) {
        int i = marks[j] >> 7, key = (marks[j] >> 1) & 63;
        int rest[MARKS_ROOM], n_rest = 0;
        for (int r = 0; r < n_marks; r++)
            if (r != j) rest[n_rest++] = marks[r];
        const Compact before = t->table[i];
        for (int q = 0; q < (before.kind == 0 ? RANKS : SUITS) && !ok; q++) {
            Compact after;
            int given = swap_meld(&before, q, &after);
            if (given < 0 || !t->hand[given] || (before.kind == 0 && given != key)) continue;
            made_turn(t, next);
            next->hand[given]--;
            if (next->notold[given]) next->notold[given]--;
            next->hand[CARDS]++;
            if (marks[j] & MARK_TAKEN) next->notold[CARDS]++;   /* the taken joker is back */
            if (next->hand[CARDS] > MAX_JOKERS) {
                PyErr_Format(PyExc_ValueError, "hand 52 is %d, not in 0..%d",
                             next->hand[CARDS], MAX_JOKERS);
                return -1;
            }
            next->table[i] = after;
            next->layout = 1;
            ok = marked_judge(next, rest, n_rest);
        }
    }
    return ok;
}

/* completion.completable_marked over a checked turn (the taken card's meld due when
 * pending) and its marks (each checked against the table): 1, 0, or -1 with an exception
 * set. A marked joker is never won back (one more table joker: the judge answers, unless it
 * is the taken joker) or won back at once. */
static int marked_judge(const Turn *t, const int *marks, int n_marks) {
    if (!n_marks || !t->pending) return judge(t, 0);
    int size = 0;
    for (int k = 0; k < SLOTS; k++) size += t->hand[k];
    if (size < 1) return 0;
    int taken_out = any_taken_mark(marks, n_marks);
    if (!taken_out) {
        int ok = judge(t, 0);
        if (ok) return ok;
    }
    Turn *next = PyMem_Malloc(sizeof(Turn));
    if (next == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    int ok = t->layout ? marked_swaps(t, marks, n_marks, next)
        : marked_meld_first(t, marks, n_marks, taken_out, size, next);
    PyMem_Free(next);
    return ok;
}

/* Applying._remove of one card from the turn's hand. */
static void remove_card(Turn *t, int k) {
    t->hand[k]--;
    if (t->notold[k]) t->notold[k]--;
}

/* Applying._lay_joker: a joker leaves the hand for meld number (key: the card it stands for
 * in a sequence, SET_JOKER in a set) while the taken card is still to be melded: a new one
 * if the hand holds one, else one held before the take, else the taken joker, the last two
 * marked. */
static void lay_joker(Turn *t, int *marks, int *n_marks, int number, int key) {
    int taken_held = t->card == CARDS && !any_taken_mark(marks, *n_marks);
    int fresh = t->notold[CARDS] - taken_held;
    int old = t->hand[CARDS] - t->notold[CARDS];
    remove_card(t, CARDS);
    if (fresh > 0) return;
    if (old > 0) {
        if (taken_held) t->notold[CARDS]++;   /* the taken joker stays: an old one was laid */
        marks[(*n_marks)++] = number << 7 | key << 1;
    } else {
        marks[(*n_marks)++] = number << 7 | key << 1 | MARK_TAKEN;
    }
}

/* Applying._meld of a meld step (slots, the index-th step) on turn t. 0, or -1 with an
 * exception set. */
static int meld_step(Turn *t, int *marks, int *n_marks, PyObject *slots, Py_ssize_t index) {
    int removed[MELD_MAX];
    Compact c;
    int n = read_meld(slots, index, t->hand, removed, &c);
    if (n < 0) return -1;
    if (!(t->card == CARDS && any_taken_mark(marks, *n_marks))
        && meld_third(removed, n, t->card, t->hand, t->notold)) {
        t->pending = 0;
        *n_marks = 0;          /* who a joker was no longer matters */
    }
    if (t->need > 0) t->need -= meld_points(slots);
    for (int i = 0; i < n; i++) {
        if (removed[i] < CARDS || !t->pending) {
            remove_card(t, removed[i]);
        } else {
            int x = (int)PyLong_AsLong(PyTuple_GET_ITEM(slots, i));
            lay_joker(t, marks, n_marks, t->n, c.kind == 1 ? SET_JOKER : x - JOKER_FOR);
        }
    }
    t->table[t->n++] = c;
    t->layout = 1;
    return 0;
}

/* The meld number and card of a lay-off or swap step (its one slot, in low..high) into
 * number and slot: 0, or -1 with an exception set. */
static int step_target(PyObject *step, Py_ssize_t index, int n, int high, int *number,
                       int *slot) {
    PyObject *number_obj = PyObject_GetAttr(step, str_number);
    if (number_obj == NULL) return -1;
    int status = number_obj == Py_None ? -2
        : int_in(number_obj, 0, n - 1, "meld number of step", index, number);
    Py_DECREF(number_obj);
    if (status == -2) {
        PyErr_Format(PyExc_ValueError, "step %zd is %R, without a meld number", index, step);
        return -1;
    }
    if (status < 0) return -1;
    PyObject *slots = PyObject_GetAttr(step, str_slots);
    if (slots == NULL) return -1;
    if (!PyTuple_Check(slots) || PyTuple_GET_SIZE(slots) != 1) {
        PyErr_Format(PyExc_ValueError, "step %zd has slots %R, not one card", index, slots);
        status = -1;
    } else {
        status = int_in(PyTuple_GET_ITEM(slots, 0), 0, high, "card of step", index, slot);
    }
    Py_DECREF(slots);
    return status;
}

/* Applying.push of a lay-off step onto meld number (slot laid) on turn t. 0, or -1 with an
 * exception set. */
static int layoff_step(Turn *t, int *marks, int *n_marks, int number, int slot,
                       Py_ssize_t index) {
    Compact after;
    int k = slot < CARDS ? slot : CARDS;
    if (laid_off(&t->table[number], slot, &after) < 0 || !t->hand[k]) {
        PyErr_Format(PyExc_ValueError, "step %zd lays off %d onto meld %d: not a lay-off "
                     "the hand can make", index, slot, number);
        return -1;
    }
    if (slot >= CARDS)
        lay_joker(t, marks, n_marks, number,
                  t->table[number].kind == 1 ? SET_JOKER : slot - JOKER_FOR);
    else
        remove_card(t, slot);
    t->table[number] = after;
    return 0;
}

/* Applying._swap of a swap step (given for a joker of meld number) on turn t: a joker this
 * turn marked comes back as what it was (Applying._won_mark: the taken joker first). 0, or
 * -1 with an exception set. */
static int swap_step(Turn *t, int *marks, int *n_marks, int number, int given,
                     Py_ssize_t index) {
    const Compact *m = &t->table[number];
    int q = m->kind == 0 ? (given / RANKS == m->a ? given % RANKS : -1)
        : (given % RANKS == m->a ? given / RANKS : -1);
    Compact after;
    if (q < 0 || swap_meld(m, q, &after) != given || !t->hand[given]
        || t->hand[CARDS] >= MAX_JOKERS) {
        PyErr_Format(PyExc_ValueError, "step %zd gives %d for a joker of meld %d: not a swap "
                     "the hand can make", index, given, number);
        return -1;
    }
    remove_card(t, given);
    t->hand[CARDS]++;
    int key = m->kind == 1 ? SET_JOKER : given, found = -1;
    for (int j = 0; j < *n_marks; j++)
        if (marks[j] >> 7 == number && ((marks[j] >> 1) & 63) == key
            && (found < 0 || marks[j] > marks[found]))
            found = j;
    if (found < 0 || marks[found] & MARK_TAKEN) t->notold[CARDS]++;   /* new, or taken back */
    if (found >= 0) marks[found] = marks[--*n_marks];
    t->table[number] = after;
    return 0;
}

/* The verdict on the index-th step: the turn t after it (Applying.push), then
 * LegalSteps.turn_completable. 1, 0, or -1 with an exception set. */
static int step_verdict(const Turn *t, const int *marks_in, int n_marks, PyObject *step,
                        Py_ssize_t index) {
    Turn after;
    made_turn(t, &after);
    int marks[MARKS_ROOM];
    memcpy(marks, marks_in, sizeof(int) * (size_t)n_marks);
    PyObject *kind = PyObject_GetAttr(step, str_kind);
    if (kind == NULL) return -1;
    int which = !PyUnicode_Check(kind) ? -1
        : PyUnicode_CompareWithASCIIString(kind, "meld") == 0 ? 0
        : PyUnicode_CompareWithASCIIString(kind, "layoff") == 0 ? 1
        : PyUnicode_CompareWithASCIIString(kind, "swap") == 0 ? 2 : -1;
    Py_DECREF(kind);
    int status, number, slot;
    if (which < 0) {
        PyErr_Format(PyExc_ValueError, "step %zd is %R, not a meld, lay-off or swap", index,
                     step);
        return -1;
    }
    if (which == 0) {
        PyObject *slots = PyObject_GetAttr(step, str_slots);
        if (slots == NULL) return -1;
        status = meld_step(&after, marks, &n_marks, slots, index);
        Py_DECREF(slots);
    } else if (which == 1) {
        status = step_target(step, index, t->n, OPEN_JOKER + RANKS - 1, &number, &slot);
        if (status == 0) status = layoff_step(&after, marks, &n_marks, number, slot, index);
    } else {
        status = step_target(step, index, t->n, CARDS - 1, &number, &slot);
        if (status == 0) status = swap_step(&after, marks, &n_marks, number, slot, index);
    }
    if (status < 0) return -1;
    int size = 0;
    for (int k = 0; k < SLOTS; k++) size += after.hand[k];
    if (size < 1) return 0;
    if (!after.pending && after.need <= 0) return 1;
    return marked_judge(&after, marks, n_marks);
}

/* The turn's joker marks (a list or tuple of deal_fields.joker_mark ints) into marks, each
 * checked against the table: a meld of it holding a joker there (a sequence's at its key, a
 * set's with SET_JOKER), no more marks on a meld than its jokers, the taken joker's mark
 * once and only for a taken joker. 0, or -1 with an exception set. */
static int read_marks(PyObject *arg, const Turn *t, int *marks, int *n_marks) {
    if (!PyList_Check(arg) && !PyTuple_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "marks must be a list of ints, not %.100s",
                     Py_TYPE(arg)->tp_name);
        return -1;
    }
    Py_ssize_t size = PySequence_Fast_GET_SIZE(arg);
    if (size > MARKS_MAX) {
        PyErr_Format(PyExc_ValueError, "marks has %zd marks, more than %d", size, MARKS_MAX);
        return -1;
    }
    int taken = 0;
    for (Py_ssize_t j = 0; j < size; j++) {
        int mark;
        if (int_in(PySequence_Fast_GET_ITEM(arg, j), 0, (t->n << 7) - 1, "mark", j, &mark) < 0)
            return -1;
        const Compact *m = &t->table[mark >> 7];
        int key = (mark >> 1) & 63, on = 0;
        for (Py_ssize_t r = 0; r < j; r++) on += marks[r] >> 7 == mark >> 7;
        int fits = m->kind == 0
            ? key < CARDS && key / RANKS == m->a && m->d >> (key % RANKS) & 1
            : key == SET_JOKER;
        taken += mark & MARK_TAKEN;
        if (!fits || on >= meld_jokers(m) || (mark & MARK_TAKEN && (t->card != CARDS || taken > 1))) {
            PyErr_Format(PyExc_ValueError, "mark %zd is %d, not a joker of the table this turn "
                         "may have laid", j, mark);
            return -1;
        }
        marks[j] = mark;
    }
    *n_marks = (int)size;
    return 0;
}

PyDoc_STRVAR(identity_verdicts_doc,
"identity_verdicts(hand, notold, card, need, layout, table, replace, marks, steps)\n"
"    -> list[bool]\n\n"
"Whether a take turn whose taken card is still to be melded can be completed after each\n"
"of steps (melds, lay-offs and swaps: Actions), each joker kept as what it is\n"
"(LegalSteps.reference_identity_completes in C: the turn after the step as Applying.push\n"
"makes it, then completion.completable_marked). hand, notold, card, need, layout, table\n"
"and replace as completable's (notold within the hand); marks: the turn's joker marks\n"
"(deal_fields.joker_mark ints, checked against the table). Bad input raises TypeError or\n"
"ValueError.");

static PyObject *identity_verdicts(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *card_arg, *need_arg, *layout_arg, *replace_arg, *marks_arg, *steps_arg;
    Turn t;
    int marks[MARKS_MAX], n_marks;
    if (!PyArg_ParseTuple(args, "OOOOOOOOO:identity_verdicts", &t.hand_arg, &t.notold_arg,
                          &card_arg, &need_arg, &layout_arg, &t.table_arg, &replace_arg,
                          &marks_arg, &steps_arg))
        return NULL;
    if (read_turn(&t, card_arg, need_arg, replace_arg) < 0
        || bool_arg(layout_arg, "layout", &t.layout) < 0
        || read_marks(marks_arg, &t, marks, &n_marks) < 0)
        return NULL;
    for (int k = 0; k < SLOTS; k++) {
        if (t.notold[k] > t.hand[k]) {
            PyErr_Format(PyExc_ValueError, "notold %d is %d, more than the hand's %d", k,
                         t.notold[k], t.hand[k]);
            return NULL;
        }
    }
    if (!PyList_Check(steps_arg)) {
        PyErr_Format(PyExc_TypeError, "steps must be a list of Actions, not %.100s",
                     Py_TYPE(steps_arg)->tp_name);
        return NULL;
    }
    t.pending = 1;
    Py_ssize_t n_steps = PyList_GET_SIZE(steps_arg);
    PyObject *out = PyList_New(n_steps);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n_steps; i++) {
        if (i >= PyList_GET_SIZE(steps_arg)) {   /* a step's attributes may run Python code */
            PyErr_SetString(PyExc_RuntimeError, "steps changed while judged");
            Py_DECREF(out);
            return NULL;
        }
        PyObject *step = Py_NewRef(PyList_GET_ITEM(steps_arg, i));
        int ok = step_verdict(&t, marks, n_marks, step, i);
        Py_DECREF(step);
        if (ok < 0) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, PyBool_FromLong(ok));
    }
    return out;
}

/* ------------------------------------------------------------------ the third-card list
 * The twelfth slice: the whole legal list after a take while the taken card's meld is due
 * and no opening points are, outside the swap-third case (LegalSteps._third_card_actions;
 * its reference, LegalSteps.reference_third_card_actions): in play mostly a taken joker,
 * else a turn without a layout or without joker_for_held. A step is legal when the taken
 * card's shortest meld with two old cards after it leaves a card (the fast judges of
 * LegalSteps._third_card_judges: third_fits; a meld also when it is the taken card's meld),
 * else when the exact judge says so: the melds as opening_melds judges them after its fast
 * judge (meld_completes, the one-swap test first), the lay-offs as points_layoffs, a swap by
 * the judge with the table as it leaves it. The reference's step filter is exact and is not
 * repeated. */

/* What a swap's verdict reads (SwapVerdict's context): the turn and the hand's size. */
typedef struct {
    const Turn *t;
    int size;
} ThirdTurn;

/* The third-card list's verdict on a swap (SwapVerdict; context: a ThirdTurn): the fast
 * judge on the hand after it (a joker more, neither old nor taken), else the judge with the
 * table as the swap leaves it (LegalSteps.completes_after_step; a hand holding a card that
 * wins a table joker passes its no-swap shortcut). */
static int third_card_swap(const void *context, int i, int k, const Compact *after) {
    const ThirdTurn *x = context;
    Turn next = *x->t;
    next.hand_arg = next.notold_arg = next.table_arg = NULL;
    next.hand[k]--;
    if (next.notold[k]) next.notold[k]--;
    next.hand[CARDS]++;
    next.notold[CARDS]++;
    if (next.hand[CARDS] > MAX_JOKERS) {    /* as search_pending refuses such a swap */
        PyErr_Format(PyExc_ValueError, "the swap of %d brings the hand to %d jokers, more "
                     "than %d", k, next.hand[CARDS], MAX_JOKERS);
        return -1;
    }
    if (third_fits(next.hand, next.notold, next.card, x->size, next.replace)) return 1;
    next.table[i] = *after;
    return judge(&next, 1);
}

PyDoc_STRVAR(third_card_list_doc,
"third_card_list(hand, notold, card, need, layout, table, replace, melds, size, swaps)\n"
"    -> (list[tuple[int, ...]], list[tuple[int, int]], list[Action])\n\n"
"The legal list after a take while the taken card's meld is due and no opening points are\n"
"(LegalSteps.reference_third_card_actions in C): the legal melds of melds (candidate melds\n"
"in canonical form, laid from hand), the legal lay-offs (meld number, slot) onto the table's\n"
"melds (each one's TableMeld.layoff_options, read off its compact form) when size is at\n"
"least 2, and the legal swaps of swaps (candidate Actions), each in order. hand, notold:\n"
"lists of 53 counts; card 0..52 (52: a taken joker; a card the hand holds); need: the\n"
"points due, -2**30 < need <= 0; layout, replace: bools; table: every table meld, compact,\n"
"in order; size: the hand's size, within 2**30. Bad input raises TypeError or ValueError.");

static PyObject *third_card_list(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *card_arg, *need_arg, *layout_arg, *replace_arg, *melds_arg, *size_arg;
    PyObject *swaps_arg;
    Turn t;
    int size;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOO:third_card_list", &t.hand_arg, &t.notold_arg,
                          &card_arg, &need_arg, &layout_arg, &t.table_arg, &replace_arg,
                          &melds_arg, &size_arg, &swaps_arg))
        return NULL;
    if (read_turn_cards(&t, card_arg, need_arg, -BOUND, 0) < 0
        || bool_arg(layout_arg, "layout", &t.layout) < 0
        || read_table(t.table_arg, t.table, &t.n) < 0
        || jokers_fit(t.hand, 0, t.table, t.n) < 0
        || bool_arg(replace_arg, "replace", &t.replace) < 0
        || int_in(size_arg, -BOUND, BOUND, "size", -1, &size) < 0)
        return NULL;
    if (t.card != CARDS && !t.hand[t.card]) {
        /* The reference's fast judge then reads the suit and rank masks as if the hand held
         * the card: a state no legal step leads to, left to the reference. */
        PyErr_Format(PyExc_ValueError, "hand does not hold the taken card %d", t.card);
        return NULL;
    }
    t.pending = 1;
    ThirdTurn context = {&t, size};
    PyObject *melds = judged_melds(&t, melds_arg, size, 0, NULL, 1);
    PyObject *layoffs = melds == NULL ? NULL
        : size >= 2 ? points_layoffs(&t, NULL, size) : PyList_New(0);
    PyObject *swaps = layoffs == NULL ? NULL
        : legal_swaps(swaps_arg, t.hand, t.table, t.n, third_card_swap, &context);
    if (swaps == NULL) {
        Py_XDECREF(melds);
        Py_XDECREF(layoffs);
        return NULL;
    }
    return Py_BuildValue("(NNN)", melds, layoffs, swaps);
}

static PyMethodDef module_methods[] = {
    {"configure", configure, METH_VARARGS, configure_doc},
    {"group_options", group_options, METH_VARARGS, group_options_doc},
    {"completable", (PyCFunction)(void (*)(void))completable, METH_VARARGS | METH_KEYWORDS,
     completable_doc},
    {"configure_judge", configure_judge, METH_VARARGS, configure_judge_doc},
    {"can_complete", (PyCFunction)(void (*)(void))can_complete, METH_VARARGS | METH_KEYWORDS,
     can_complete_doc},
    {"forget_judged", forget_judged, METH_NOARGS, forget_judged_doc},
    {"shortest_third", shortest_third_py, METH_VARARGS, shortest_third_doc},
    {"swap_third_length", swap_third_length, METH_VARARGS, swap_third_length_doc},
    {"take_positions", take_positions, METH_VARARGS, take_positions_doc},
    {"swap_third_melds", swap_third_melds, METH_VARARGS, swap_third_melds_doc},
    {"opening_melds", opening_melds, METH_VARARGS, opening_melds_doc},
    {"opening_layoffs", opening_layoffs, METH_VARARGS, opening_layoffs_doc},
    {"layout_layoffs", layout_layoffs, METH_VARARGS, layout_layoffs_doc},
    {"swap_third_list", swap_third_list, METH_VARARGS, swap_third_list_doc},
    {"candidate_melds", candidate_melds, METH_VARARGS, candidate_melds_doc},
    {"identity_verdicts", identity_verdicts, METH_VARARGS, identity_verdicts_doc},
    {"third_card_list", third_card_list, METH_VARARGS, third_card_list_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "konkun.kunken.hand_search",
    .m_doc = "The C core of konkun.kunken.arrangement.HandSearch and of "
             "konkun.kunken.completion.completable (docs/kunken.md, Speed).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit_hand_search(void) {
    for (int v = 0; v <= MAX_JOKERS; v++) {
        if (small_ints[v] == NULL && (small_ints[v] = PyLong_FromLong(v)) == NULL) return NULL;
    }
    if ((str_kind == NULL && (str_kind = PyUnicode_InternFromString("kind")) == NULL)
        || (str_number == NULL && (str_number = PyUnicode_InternFromString("number")) == NULL)
        || (str_slots == NULL && (str_slots = PyUnicode_InternFromString("slots")) == NULL))
        return NULL;
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
