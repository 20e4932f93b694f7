/* The C core of konkun.kunken.arrangement.HandSearch: the bounded, memoised search for melds
 * worth at least a number of points (docs/kunken.md, "Speed", "The C core").
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

/* An int argument in [low, high], else ValueError (TypeError when not an int); index < 0:
 * the argument is not one of a sequence's items. */
static int int_in(PyObject *item, long low, long high, const char *what, Py_ssize_t index,
                  int *out) {
    if (!PyLong_Check(item) || PyBool_Check(item)) {
        if (index < 0)
            PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what,
                         Py_TYPE(item)->tp_name);
        else
            PyErr_Format(PyExc_TypeError, "%s %zd must be an int, not %.100s", what, index,
                         Py_TYPE(item)->tp_name);
        return -1;
    }
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(item, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
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

/* The groups met so far, by group key (kind, place, mask, jokers), each its options. */
typedef struct {
    uint32_t key_plus_one;     /* 0: a free slot */
    Py_ssize_t n;
    Option *options;
} Group;

#define GROUP_LIMIT 200000     /* the cache is emptied past it, as hand_melds' caches are */
static Group *groups = NULL;
static size_t groups_size = 0; /* a power of two */
static size_t groups_used = 0;

static void groups_clear(void) {
    for (size_t i = 0; i < groups_size; i++) PyMem_Free(groups[i].options);
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
 * the listing. */
static int list_meld(Listing *out, const int *reals, int n_reals, int used, int points) {
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
                    list_meld(out, reals, size, j, points + j * position_value[place]) < 0)
                    return -1;
            }
        } while (next_combination(idx, size, n_held));
    }
    return 0;
}

static int bits(int mask) {
    int n = 0;
    for (; mask; mask &= mask - 1) n++;
    return n;
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
            int gaps = 0;
            for (int i = 0; i < length; i++) gaps += !(mask >> ((start + i) % RANKS) & 1);
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
                if (list_meld(out, held, n_held, gaps, points) < 0) return -1;
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
                    if (list_meld(out, reals, n_reals, gaps + k, points) < 0) return -1;
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
        if (int_in(PySequence_Fast_GET_ITEM(fast, k), 0, k < CARDS ? MAX_COPIES : MAX_JOKERS,
                   "count of card", k, &counts[k]) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

#define MAX_GROUPS 17          /* 13 ranks' sets and 4 suits' sequences */

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
    if (groups_used > GROUP_LIMIT) groups_clear();
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
    if (need <= 0) {
        int held = 0;
        for (int k = 0; k < SLOTS; k++) held += counts[k];
        return PyBool_FromLong(!leave || held > 0);
    }
    int total = live_total(self, counts);
    if (total < need) Py_RETURN_FALSE;
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
    int ok = reach(self, counts, 0, lo, hi, total, leave && !dropped, need);
    if (ok < 0) return NULL;
    return PyBool_FromLong(ok);
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

static PyMethodDef module_methods[] = {
    {"configure", configure, METH_VARARGS, configure_doc},
    {"group_options", group_options, METH_VARARGS, group_options_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "konkun.kunken.hand_search",
    .m_doc = "The C core of konkun.kunken.arrangement.HandSearch (docs/kunken.md, Speed).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit_hand_search(void) {
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
