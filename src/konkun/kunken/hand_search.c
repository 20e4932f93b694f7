/* The C core of konkun.kunken.arrangement.HandSearch: the bounded, memoised search for melds
 * worth at least a number of points (docs/kunken.md, "Speed", "The C core").
 *
 * It runs the search of arrangement.ReferenceSearch (the pure Python reference, used when
 * this module is not built) over the same options in the same order. The melds stay defined
 * in Python only: a Search asks arrangement.group_options (given to configure()) for the
 * options of each group of melds of hand_melds.hand_meld_groups (a rank's sets, a suit's
 * sequences) the first time it meets the group, and keeps them. Every argument, and every
 * option Python returns, is checked before the search uses it: bad input raises TypeError or
 * ValueError, and nothing reads or writes outside the arrays.
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

/* Set once by configure(): each card's points in hand (value[52]: a joker), and the Python
 * function that lists a group's options. */
static int value[SLOTS];
static PyObject *group_source = NULL;
static int calling = 0;        /* inside group_source: the group cache is not emptied */

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

/* One (low, option) pair of a group, option = (reals, jokers, points, code, value), as
 * arrangement.group_options returns it. */
static int read_option(PyObject *pair, Option *o) {
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
        PyErr_Format(PyExc_TypeError, "a group's option must be a (low, option) pair, not %R",
                     pair);
        return -1;
    }
    if (int_in(PyTuple_GET_ITEM(pair, 0), 0, CARDS - 1, "an option's lowest card", -1,
               &o->low) < 0)
        return -1;
    PyObject *item = PyTuple_GET_ITEM(pair, 1);
    if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 5) {
        PyErr_Format(PyExc_TypeError, "an option must be a tuple of 5 items, not %R", item);
        return -1;
    }
    PyObject *reals = PyTuple_GET_ITEM(item, 0);
    if (!PyTuple_Check(reals) || PyTuple_GET_SIZE(reals) < 1 ||
        PyTuple_GET_SIZE(reals) > MAX_REALS) {
        PyErr_Format(PyExc_ValueError, "an option's real cards must be a tuple of 1 to %d "
                     "cards, not %R", MAX_REALS, reals);
        return -1;
    }
    o->n_reals = (int)PyTuple_GET_SIZE(reals);
    o->code_lo = o->code_hi = 0;
    uint64_t seen = 0;
    for (int r = 0; r < o->n_reals; r++) {
        int c, word;
        if (int_in(PyTuple_GET_ITEM(reals, r), o->low, CARDS - 1, "real card", r, &c) < 0)
            return -1;
        if (seen >> c & 1) {
            PyErr_Format(PyExc_ValueError, "an option's real cards %R repeat card %d", reals, c);
            return -1;
        }
        seen |= (uint64_t)1 << c;
        o->reals[r] = (uint8_t)c;
        uint64_t bit = card_code(c, &word);
        if (word) o->code_hi += bit; else o->code_lo += bit;
    }
    if (!(seen >> o->low & 1)) {
        PyErr_Format(PyExc_ValueError, "an option of lowest card %d does not hold it: %R",
                     o->low, reals);
        return -1;
    }
    if (int_in(PyTuple_GET_ITEM(item, 1), 0, MAX_REALS, "an option's jokers", -1, &o->used) < 0
        || int_in(PyTuple_GET_ITEM(item, 2), 0, SMALL, "an option's points", -1,
                  &o->points) < 0
        || int_in(PyTuple_GET_ITEM(item, 4), 0, SMALL, "an option's value", -1, &o->lost) < 0)
        return -1;
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

/* The options of a group (kind 0: the sets of rank position place from the held suits
 * mask, 1: the sequences of suit place from its held positions mask, 2: those and their
 * readings with held cards replaced by jokers), asked of Python the first time. */
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
    calling++;
    PyObject *found = PyObject_CallFunction(group_source, "iiii", kind, place, mask, jokers);
    calling--;
    if (found == NULL) return NULL;
    PyObject *items = PySequence_Tuple(found);
    Py_DECREF(found);
    if (items == NULL) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(items);
    Option *options = PyMem_Malloc((n ? n : 1) * sizeof(Option));
    if (options == NULL) {
        Py_DECREF(items);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (read_option(PyTuple_GET_ITEM(items, i), &options[i]) < 0) {
            PyMem_Free(options);
            Py_DECREF(items);
            return NULL;
        }
    }
    Py_DECREF(items);
    if ((groups_used + 1) * 2 > groups_size && groups_grow() < 0) {
        PyMem_Free(options);
        return NULL;
    }
    size_t i = group_slot(key_plus_one, groups_size);
    while (groups[i].key_plus_one) i = (i + 1) & (groups_size - 1);
    groups[i].key_plus_one = key_plus_one;
    groups[i].n = n;
    groups[i].options = options;
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
    if (group_source == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "configure() was not called");
        return -1;
    }
    if (read_counts(counts_arg, counts) < 0) return -1;
    if (groups_used > GROUP_LIMIT && !calling) groups_clear();
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
        int cap = is_set ? 2 : 6;
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
    .tp_name = "konkun.kunken._hand_search.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_dealloc = (destructor)search_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = search_doc,
    .tp_methods = search_methods,
    .tp_init = (initproc)search_init,
    .tp_new = PyType_GenericNew,
};

PyDoc_STRVAR(configure_doc,
"configure(values, group_options)\n\n"
"values: each card's points in hand (53 ints, the joker last); group_options(kind, place,\n"
"mask, jokers): the (lowest card, option) pairs of a group of melds. Forgets the groups\n"
"known so far.");

static PyObject *configure(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *values_arg, *source;
    int read[SLOTS];
    if (!PyArg_ParseTuple(args, "OO:configure", &values_arg, &source)) return NULL;
    if (!PyCallable_Check(source)) {
        PyErr_Format(PyExc_TypeError, "group_options must be callable, not %.100s",
                     Py_TYPE(source)->tp_name);
        return NULL;
    }
    PyObject *fast = PySequence_Fast(values_arg, "values must be a sequence of 53 ints");
    if (fast == NULL) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != SLOTS) {
        PyErr_Format(PyExc_ValueError, "values must have %d items, not %zd", SLOTS,
                     PySequence_Fast_GET_SIZE(fast));
        Py_DECREF(fast);
        return NULL;
    }
    for (int k = 0; k < SLOTS; k++) {
        if (int_in(PySequence_Fast_GET_ITEM(fast, k), 0, SMALL, "value of card", k,
                   &read[k]) < 0) {
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    if (calling) {
        PyErr_SetString(PyExc_RuntimeError, "configure() while a group is being listed");
        return NULL;
    }
    memcpy(value, read, sizeof(value));
    Py_INCREF(source);
    Py_XSETREF(group_source, source);
    groups_clear();
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"configure", configure, METH_VARARGS, configure_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "konkun.kunken._hand_search",
    .m_doc = "The C core of konkun.kunken.arrangement.HandSearch (docs/kunken.md, Speed).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__hand_search(void) {
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
