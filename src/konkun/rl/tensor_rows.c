/* The Kunken vector env's tensor rows in C (konkun.rl.tensor_rows), and the reading of a
 * deal's count lists as bytes that feeds them (append_bytes).
 *
 * KunkenCore (konkun/rl/kunken_vector.py) reads every deal's counts and integers in one
 * compiled pass (konkun.rl.kunken_loops.read_views) and keeps the laid rows and meld
 * owners of every deal in numpy arrays; write_rows turns them into every row of each
 * deal's tensor but the meld rows, as KunkenAdapter.encode_deal writes them (docs/rl.md):
 * the same float32 values, bit for bit, which the tests check after every step. Its numpy
 * twin, KunkenCore._rest, runs where this module is not built.
 *
 * Every argument is checked before anything is written: sizes, formats, and each integer
 * against its range, so bad input raises TypeError or ValueError and cannot write out of
 * bounds. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define CARDS 53
#define SCALARS 11
#define BANK_TOP 8
#define MAX_SEATS 14 /* the features row holds 10 + 3n entries */

/* The integers of one deal in its scalars (kunken_loops.read_views), by position. */
enum { STOCK, RENEWALS, DEALER, ACTING, PHASE, PENDING, NEED, OPENING, TAKE_CARD, MELDS,
       BANK };

/* An int item of a list (not a bool), read without a call when it has one digit. */
static int item_long(PyObject *list, Py_ssize_t k, const char *what, long *out) {
    PyObject *item = PyList_GET_ITEM(list, k);
    if (Py_IS_TYPE(item, &PyLong_Type)) {
#if PY_VERSION_HEX >= 0x030C0000
        if (PyUnstable_Long_IsCompact((PyLongObject *)item)) {
            *out = (long)PyUnstable_Long_CompactValue((PyLongObject *)item);
            return 0;
        }
#else
        Py_ssize_t size = Py_SIZE(item);
        if (size >= -1 && size <= 1) {
            *out = (long)size * (long)((PyLongObject *)item)->ob_digit[0];
            return 0;
        }
#endif
    }
    if (!PyLong_Check(item) || PyBool_Check(item)) {
        PyErr_Format(PyExc_TypeError, "%s %zd must be an int, not %.100s", what, k,
                     Py_TYPE(item)->tp_name);
        return -1;
    }
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(item, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v < -(1L << 30) || v > (1L << 30)) {
        PyErr_Format(PyExc_ValueError, "%s %zd is %R, out of range", what, k, item);
        return -1;
    }
    *out = v;
    return 0;
}

static int expect_args(const char *name, Py_ssize_t nargs, Py_ssize_t want) {
    if (nargs == want) return 0;
    PyErr_Format(PyExc_TypeError, "%s takes %zd arguments (%zd given)", name, want, nargs);
    return -1;
}

static int in_range(long v, long low, long high, const char *what, Py_ssize_t k) {
    if (v < low || v > high) {
        PyErr_Format(PyExc_ValueError, "%s %zd is %ld, not in %ld..%ld", what, k, v, low,
                     high);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ reading counts
 * kunken_loops reads every deal's count lists at every step; bytes(list) converts an item
 * through the number protocol, about ten times the cost of reading it here. */

PyDoc_STRVAR(append_bytes_doc,
"append_bytes(out, items) -> None\n\n"
"Append the list items of ints 0..255 to the bytearray out, a byte each (out +=\n"
"bytes(items) without the bytes). Bad input raises TypeError or ValueError and leaves out\n"
"as it was.");

static PyObject *append_bytes(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (expect_args("append_bytes", nargs, 2) < 0) return NULL;
    PyObject *out = args[0], *items = args[1];
    if (!PyByteArray_Check(out)) {
        PyErr_Format(PyExc_TypeError, "out must be a bytearray, not %.100s",
                     Py_TYPE(out)->tp_name);
        return NULL;
    }
    if (!PyList_Check(items)) {
        PyErr_Format(PyExc_TypeError, "items must be a list, not %.100s",
                     Py_TYPE(items)->tp_name);
        return NULL;
    }
    Py_ssize_t start = PyByteArray_GET_SIZE(out), n = PyList_GET_SIZE(items);
    if (PyByteArray_Resize(out, start + n) < 0) return NULL;
    char *bytes = PyByteArray_AS_STRING(out) + start;
    /* Reading an int runs no Python code, so neither object can change meanwhile. */
    for (Py_ssize_t k = 0; k < n; k++) {
        long v;
        if (item_long(items, k, "items", &v) < 0 || in_range(v, 0, 255, "items", k) < 0) {
            PyObject *type, *value, *traceback;
            PyErr_Fetch(&type, &value, &traceback);
            (void)PyByteArray_Resize(out, start);
            PyErr_Restore(type, value, traceback);
            return NULL;
        }
        bytes[k] = (char)v;
    }
    Py_RETURN_NONE;
}

/* A C-contiguous buffer of at least `need` items of `format` ("f": float32, "q": int64,
 * which numpy exports as "l" where a C long has 64 bits; NULL: bytes), writable when
 * asked. */
static int get_buffer(PyObject *obj, Py_buffer *view, const char *format, int writable,
                      Py_ssize_t need, const char *what) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) return -1;
    const char *got = view->format ? view->format : "B";
    Py_ssize_t item = format == NULL ? 1 : format[0] == 'f' ? 4 : 8;
    const char *letters = format == NULL ? "" : format[0] == 'f' ? "f" : "ql";
    int format_ok = format == NULL ? view->itemsize == 1
                                   : view->itemsize == item && strpbrk(got, letters) != NULL;
    if (!format_ok || view->len < need * item) {
        PyErr_Format(PyExc_ValueError, "%s must hold %zd items of format %s (has %zd bytes, "
                     "format %s)", what, need, format ? format : "B", view->len, got);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* One deal's rows but the meld rows (see the module). */
typedef struct {
    int n, t, rows;             /* seats, table slots, rows of a tensor */
    double pack, renew_div, opening_div;
    const float *scale;         /* 53 */
    const float *laid;          /* per deal (n + 1) rows of 53 */
    const int64_t *owners;      /* per deal t owners, -1: none */
} Layout;

/* A row of card counts, each scaled by its card's weight (float32, as numpy's uint8 times
 * float32). */
static void scaled_row(float *row, const uint8_t *counts, const float *scale) {
    for (int k = 0; k < CARDS; k++) row[k] = (float)counts[k] * scale[k];
}

static void write_deal(const Layout *L, float *o, const uint8_t *people, const uint8_t *bank,
                       const long *v, int viewer, Py_ssize_t deal) {
    int n = L->n, t = L->t;
    const float *scale = L->scale;
    int order[MAX_SEATS];
    for (int q = 0; q < n; q++) order[q] = (viewer + q) % n;
    scaled_row(o, people, scale);                     /* 0: own hand */
    int counts[CARDS] = {0};                          /* 1: the bank */
    long size = v[BANK];
    for (long k = 0; k < size; k++) counts[bank[k]]++;
    float *row = o + CARDS;
    for (int k = 0; k < CARDS; k++) row[k] = (float)((double)counts[k] * (double)scale[k]);
    row = o + 2 * CARDS;                              /* 2..9: the bank's top */
    memset(row, 0, sizeof(float) * CARDS * BANK_TOP);
    for (long k = 0; k < size && k < BANK_TOP; k++) row[k * CARDS + bank[size - 1 - k]] = 1.0f;
    const float *laid = L->laid + deal * (n + 1) * CARDS;
    for (int q = 0; q < n; q++)                       /* 10..9+n: laid; 10+n: stand-for */
        memcpy(o + (10 + q) * CARDS, laid + order[q] * CARDS, sizeof(float) * CARDS);
    memcpy(o + (10 + n) * CARDS, laid + n * CARDS, sizeof(float) * CARDS);
    for (int q = 0; q < n; q++)                       /* 11+n..10+2n: taken */
        scaled_row(o + (11 + n + q) * CARDS, people + (1 + order[q]) * CARDS, scale);
    scaled_row(o + (11 + 2 * n) * CARDS, people + (1 + n) * CARDS, scale); /* 11+2n: turn */
    row = o + (12 + 2 * n) * CARDS;                   /* 12+2n: the card to meld */
    memset(row, 0, sizeof(float) * CARDS);
    if (v[TAKE_CARD] >= 0) row[v[TAKE_CARD]] = 1.0f;
    row = o + (13 + 2 * n + t) * CARDS;               /* 13+2n+t: meld owners */
    memset(row, 0, sizeof(float) * CARDS);
    const int64_t *owners = L->owners + deal * t;
    for (int m = 0; m < t && m < CARDS; m++) {
        if (owners[m] >= 0)
            row[m] = (float)((double)(((owners[m] - viewer) % n + n) % n + 1) / n);
    }
    row = o + (14 + 2 * n + t) * CARDS;               /* 14+2n+t: features */
    memset(row, 0, sizeof(float) * CARDS);
    const long *sizes = v + SCALARS, *layouts = v + SCALARS + n;
    row[0] = (float)((double)v[STOCK] / L->pack);
    double renewed = (double)v[RENEWALS] / L->renew_div;
    row[1] = (float)(renewed < 1.0 ? renewed : 1.0);
    for (int q = 0; q < n; q++) {
        double held = (double)sizes[order[q]] / 28.0;
        row[2 + q] = (float)(held < 1.0 ? held : 1.0);
        row[2 + n + q] = layouts[order[q]] != 0 ? 1.0f : 0.0f;
    }
    row[2 + 2 * n + v[DEALER]] = 1.0f;
    int base = 2 + 3 * n;
    row[base] = (float)v[ACTING];
    if (v[PHASE] < 3) row[base + 1 + v[PHASE]] = 1.0f;
    row[base + 4] = (float)v[PENDING];
    double due = (double)(v[NEED] > 0 ? v[NEED] : 0) / L->opening_div;
    row[base + 5] = (float)(due < 1.0 ? due : 1.0);
    row[base + 6] = (float)v[OPENING];
    row[base + 7] = (float)((double)size / L->pack);
}

PyDoc_STRVAR(write_rows_doc,
"write_rows(out, dense, banks, scalars, seats, deals, laid, owners, scale, shape, norms)\n"
"    -> None\n\n"
"Write every row but the meld rows of the tensor of deal deals[j] as seats[j] sees it into\n"
"out[j] (KunkenCore._rest in C). out: writable float32 buffer of len(deals) tensors;\n"
"dense: per deal the hand, the cards taken by seat number and the turn's cards (53 bytes\n"
"each); banks: every deal's bank, joined; scalars: per deal 11 + 2n ints\n"
"(kunken_loops.read_views); laid: float32 (deals, n + 1, 53); owners: int64 (deals, t);\n"
"scale: 53 float32; shape: (n, t, rows); norms: (pack, renewals divisor, opening\n"
"divisor). Bad input raises TypeError or ValueError before anything is written.");

static PyObject *write_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (expect_args("write_rows", nargs, 11) < 0) return NULL;
    PyObject *scalars = args[3], *seats = args[4], *deals = args[5];
    Layout L;
    if (!PyArg_ParseTuple(args[9], "iii:shape", &L.n, &L.t, &L.rows)
        || !PyArg_ParseTuple(args[10], "ddd:norms", &L.pack, &L.renew_div, &L.opening_div))
        return NULL;
    if (L.n < 2 || L.n > MAX_SEATS || L.t < 0 || L.t > 1 << 16
        || L.rows != 15 + 2 * L.n + L.t || !(L.pack > 0) || !(L.renew_div > 0)
        || !(L.opening_div > 0)) {
        PyErr_SetString(PyExc_ValueError, "write_rows: bad shape or norms");
        return NULL;
    }
    if (!PyList_Check(scalars) || !PyList_Check(seats) || !PyList_Check(deals)) {
        PyErr_SetString(PyExc_TypeError, "scalars, seats and deals must be lists");
        return NULL;
    }
    Py_ssize_t count = PyList_GET_SIZE(deals), width = SCALARS + 2 * L.n;
    if (PyList_GET_SIZE(seats) != count || PyList_GET_SIZE(scalars) != count * width) {
        PyErr_Format(PyExc_ValueError, "%zd deals need %zd seats and %zd scalars (got %zd "
                     "and %zd)", count, count, count * width, PyList_GET_SIZE(seats),
                     PyList_GET_SIZE(scalars));
        return NULL;
    }
    long *v = PyMem_Malloc(sizeof(long) * (size_t)(count * width + 2 * count + 1));
    if (v == NULL) return PyErr_NoMemory();
    long *viewers = v + count * width, *rows = viewers + count;
    Py_buffer out = {0}, dense = {0}, banks = {0}, laid = {0}, owners = {0}, scale = {0};
    int ok = 0;
    for (Py_ssize_t k = 0; k < count * width; k++)
        if (item_long(scalars, k, "scalars", &v[k]) < 0) goto done;
    if (get_buffer(args[6], &laid, "f", 0, 0, "laid") < 0) goto done;
    Py_ssize_t num_deals = laid.len / (4 * (L.n + 1) * CARDS);
    if (get_buffer(args[7], &owners, "q", 0, num_deals * L.t, "owners") < 0
        || get_buffer(args[8], &scale, "f", 0, CARDS, "scale") < 0
        || get_buffer(args[0], &out, "f", 1, count * L.rows * CARDS, "out") < 0
        || get_buffer(args[1], &dense, NULL, 0, count * (2 + L.n) * CARDS, "dense") < 0
        || get_buffer(args[2], &banks, NULL, 0, 0, "banks") < 0)
        goto done;
    Py_ssize_t cards = 0;
    for (Py_ssize_t j = 0; j < count; j++) {
        const long *s = v + j * width;
        if (item_long(seats, j, "seats", &viewers[j]) < 0
            || item_long(deals, j, "deals", &rows[j]) < 0
            || in_range(viewers[j], 0, L.n - 1, "seats", j) < 0
            || in_range(rows[j], 0, (long)num_deals - 1, "deals", j) < 0
            || in_range(s[DEALER], 0, L.n - 1, "dealer offset of deal", j) < 0
            || in_range(s[PHASE], 0, 3, "phase of deal", j) < 0
            || in_range(s[TAKE_CARD], -1, CARDS - 1, "card to meld of deal", j) < 0
            || in_range(s[BANK], 0, 1 << 16, "bank size of deal", j) < 0)
            goto done;
        cards += s[BANK];
    }
    if (banks.len != cards) {
        PyErr_Format(PyExc_ValueError, "banks holds %zd cards, the bank sizes %zd",
                     banks.len, cards);
        goto done;
    }
    const uint8_t *bank = banks.buf;
    for (Py_ssize_t k = 0; k < cards; k++) {
        if (bank[k] >= CARDS) {
            PyErr_Format(PyExc_ValueError, "banks card %zd is %d, not in 0..52", k, bank[k]);
            goto done;
        }
    }
    const int64_t *owner = owners.buf;
    for (Py_ssize_t k = 0; k < num_deals * L.t; k++) {
        if (owner[k] < -1 || owner[k] >= L.n) {
            PyErr_Format(PyExc_ValueError, "owners %zd is %lld, not in -1..%d", k,
                         (long long)owner[k], L.n - 1);
            goto done;
        }
    }
    L.scale = scale.buf;
    L.laid = laid.buf;
    L.owners = owners.buf;
    for (Py_ssize_t j = 0; j < count; j++) {
        write_deal(&L, (float *)out.buf + j * L.rows * CARDS,
                   (const uint8_t *)dense.buf + j * (2 + L.n) * CARDS, bank, v + j * width,
                   (int)viewers[j], rows[j]);
        bank += v[j * width + BANK];
    }
    ok = 1;
done:
    PyBuffer_Release(&out);
    PyBuffer_Release(&dense);
    PyBuffer_Release(&banks);
    PyBuffer_Release(&laid);
    PyBuffer_Release(&owners);
    PyBuffer_Release(&scale);
    PyMem_Free(v);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"write_rows", (PyCFunction)(void (*)(void))write_rows, METH_FASTCALL, write_rows_doc},
    {"append_bytes", (PyCFunction)(void (*)(void))append_bytes, METH_FASTCALL,
     append_bytes_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "konkun.rl.tensor_rows",
    .m_doc = "The Kunken vector env's tensor rows in C (docs/rl.md).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit_tensor_rows(void) { return PyModule_Create(&module); }
