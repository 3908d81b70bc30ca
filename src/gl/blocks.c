/* The shader storage blocks a compute shader declares, counted from its
 * source as programs.c assembles it (the #defines, common.glsl, the stage's
 * file) with as much of the GLSL preprocessor as that takes. A program
 * with more blocks than GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS fails to link
 * (OpenGL ES 3.1 promises 4, GL 4.3 8), and Mesa counts every declared
 * std430 block, read or not; counted from the sources, the number follows
 * the shaders as they change, with no table to keep in step. programs.c
 * checks it against each linked program's active blocks. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum {
  MAX_MACROS = 512,
  MAX_NESTING = 64,
  MAX_TOKENS = 512,
  MAX_EXPANSION = 16, /* macros within macros, as deep as an #if may take them */
  UNKNOWN = -1
};

/* A macro's state: an object-like macro's value is known; a function-like
 * one only is defined; one defined or undefined where the preprocessor's
 * way is unknown may be either. */
typedef enum macro_kind { MACRO_UNDEFINED, MACRO_VALUE, MACRO_FUNCTION, MACRO_UNSURE } macro_kind;

typedef struct macro {
  const char *name, *value;
  size_t name_len, value_len;
  macro_kind kind;
} macro;

/* One #if level: whether its current branch is on (1), off (0) or unknown
 * (-1), whether a branch was taken, whether an earlier condition was unknown. */
typedef struct level {
  int on;
  bool taken, unsure;
} level;

typedef struct scan {
  macro macros[MAX_MACROS];
  size_t macro_count;
  level levels[MAX_NESTING];
  size_t depth;
  bool failed; /* something this reader cannot follow: the count is unknown */
} scan;

static bool ident_start(char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }
static const char *skip_blanks(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v')) p++;
  return p;
}
static const char *ident_end(const char *p, const char *end) {
  while (p < end && ident_char(*p)) p++;
  return p;
}

static macro *find_macro(scan *s, const char *name, size_t len) {
  for (size_t i = 0; i < s->macro_count; i++)
    if (s->macros[i].name_len == len && memcmp(s->macros[i].name, name, len) == 0)
      return &s->macros[i];
  return NULL;
}

static void set_macro(scan *s, const char *name, size_t len, macro_kind kind, const char *value,
                      size_t value_len) {
  macro *m = find_macro(s, name, len);
  if (!m) {
    if (s->macro_count == MAX_MACROS) {
      s->failed = true;
      return;
    }
    m = &s->macros[s->macro_count++];
    m->name = name;
    m->name_len = len;
  }
  m->kind = kind;
  m->value = value;
  m->value_len = value_len;
}

/* Whether a name is defined: 1, 0 or UNKNOWN. The GL's own macros
 * (GL_ES, GL_KHR_..., __VERSION__) are the compiler's to define. */
static int defined(scan *s, const char *name, size_t len) {
  if ((len >= 3 && memcmp(name, "GL_", 3) == 0) || (len >= 2 && memcmp(name, "__", 2) == 0))
    return UNKNOWN;
  const macro *m = find_macro(s, name, len);
  if (!m || m->kind == MACRO_UNDEFINED) return 0;
  return m->kind == MACRO_UNSURE ? UNKNOWN : 1;
}

/* ---- #if expressions: tokens with macros expanded, then a C-like
 * evaluation in which an unknown operand makes the result unknown (but
 * 0 && x and 1 || x are known). ---- */

typedef enum tok_kind { TOK_NUM, TOK_UNKNOWN, TOK_OP } tok_kind;
typedef struct tok {
  tok_kind kind;
  int64_t num;
  char op[3];
} tok;

typedef struct expr {
  tok toks[MAX_TOKENS];
  size_t count, at;
  bool bad;
} expr;

static void push_tok(expr *e, tok t) {
  if (e->count == MAX_TOKENS) e->bad = true;
  else e->toks[e->count++] = t;
}

static const char *const OPS[] = {"&&", "||", "==", "!=", "<=", ">=", "<<", ">>", "(", ")", "!",
                                  "~", "-", "+", "*", "/", "%", "<", ">", "&", "|", "^"};

/* Appends the tokens of [p, end), expanding macros `depth` deep. */
static void tokenize(scan *s, expr *e, const char *p, const char *end, int depth) {
  if (depth > MAX_EXPANSION) {
    e->bad = true;
    return;
  }
  while (!e->bad && (p = skip_blanks(p, end)) < end) {
    if (*p >= '0' && *p <= '9') {
      char *stop = NULL;
      char digits[32];
      size_t n = 0;
      while (p + n < end && ident_char(p[n]) && n < sizeof digits - 1) n++;
      memcpy(digits, p, n);
      digits[n] = '\0';
      tok t = {TOK_NUM, (int64_t)strtoll(digits, &stop, 0), ""};
      if (*stop == 'u' || *stop == 'U') stop++;
      if (*stop != '\0') e->bad = true; /* not an integer GLSL's #if takes */
      push_tok(e, t);
      p += n;
    } else if (ident_start(*p)) {
      const char *name = p;
      p = ident_end(p, end);
      const size_t len = (size_t)(p - name);
      if (len == 7 && memcmp(name, "defined", 7) == 0) {
        const char *q = skip_blanks(p, end);
        const bool paren = q < end && *q == '(';
        if (paren) q = skip_blanks(q + 1, end);
        const char *arg = q;
        q = ident_end(q, end);
        if (q == arg) {
          e->bad = true;
          return;
        }
        const int d = defined(s, arg, (size_t)(q - arg));
        if (paren) {
          q = skip_blanks(q, end);
          if (q == end || *q != ')') {
            e->bad = true;
            return;
          }
          q++;
        }
        tok t = {d == UNKNOWN ? TOK_UNKNOWN : TOK_NUM, d == 1, ""};
        push_tok(e, t);
        p = q;
        continue;
      }
      const macro *m = defined(s, name, len) == 1 ? find_macro(s, name, len) : NULL;
      if (m && m->kind == MACRO_VALUE) {
        tokenize(s, e, m->value, m->value + m->value_len, depth + 1);
      } else {
        /* undefined (an error in GLSL's #if), function-like or unsure */
        tok t = {TOK_UNKNOWN, 0, ""};
        push_tok(e, t);
      }
    } else {
      size_t i = 0;
      for (; i < sizeof OPS / sizeof OPS[0]; i++) {
        const size_t n = strlen(OPS[i]);
        if ((size_t)(end - p) >= n && memcmp(p, OPS[i], n) == 0) break;
      }
      if (i == sizeof OPS / sizeof OPS[0]) {
        e->bad = true; /* ?:, a comma or anything else this reader does not take */
        return;
      }
      tok t = {TOK_OP, 0, ""};
      memcpy(t.op, OPS[i], strlen(OPS[i]) + 1);
      push_tok(e, t);
      p += strlen(OPS[i]);
    }
  }
}

typedef struct val {
  int64_t v;
  bool known;
} val;

static bool is_op(const expr *e, const char *op) {
  return e->at < e->count && e->toks[e->at].kind == TOK_OP && strcmp(e->toks[e->at].op, op) == 0;
}

/* C's precedence of a binary operator; 0: not one */
static int precedence(const tok *t) {
  static const struct { const char *op; int prec; } table[] = {
      {"*", 10}, {"/", 10}, {"%", 10}, {"+", 9},  {"-", 9},  {"<<", 8}, {">>", 8},
      {"<", 7},  {">", 7},  {"<=", 7}, {">=", 7}, {"==", 6}, {"!=", 6}, {"&", 5},
      {"^", 4},  {"|", 3},  {"&&", 2}, {"||", 1}};
  if (t->kind != TOK_OP) return 0;
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (strcmp(t->op, table[i].op) == 0) return table[i].prec;
  return 0;
}

/* Wrapping arithmetic: an #if of large numbers must not be undefined
 * behaviour here. */
static val apply(const char *op, val a, val b) {
  const val unknown = {0, false};
  if (strcmp(op, "&&") == 0) {
    if ((a.known && !a.v) || (b.known && !b.v)) return (val){0, true};
    return a.known && b.known ? (val){1, true} : unknown;
  }
  if (strcmp(op, "||") == 0) {
    if ((a.known && a.v) || (b.known && b.v)) return (val){1, true};
    return a.known && b.known ? (val){0, true} : unknown;
  }
  if (!a.known || !b.known) return unknown;
  const uint64_t x = (uint64_t)a.v, y = (uint64_t)b.v;
  switch (op[0]) {
  case '*': return (val){(int64_t)(x * y), true};
  case '/':
  case '%':
    if (b.v == 0 || (a.v == INT64_MIN && b.v == -1)) return unknown;
    return (val){op[0] == '/' ? a.v / b.v : a.v % b.v, true};
  case '+': return (val){(int64_t)(x + y), true};
  case '-': return (val){(int64_t)(x - y), true};
  case '^': return (val){(int64_t)(x ^ y), true};
  default: break;
  }
  if (strcmp(op, "<<") == 0 || strcmp(op, ">>") == 0) {
    if (b.v < 0 || b.v > 63) return unknown;
    return (val){op[0] == '<' ? (int64_t)(x << b.v) : a.v >> b.v, true};
  }
  if (strcmp(op, "<=") == 0) return (val){a.v <= b.v, true};
  if (strcmp(op, ">=") == 0) return (val){a.v >= b.v, true};
  if (strcmp(op, "==") == 0) return (val){a.v == b.v, true};
  if (strcmp(op, "!=") == 0) return (val){a.v != b.v, true};
  if (strcmp(op, "<") == 0) return (val){a.v < b.v, true};
  if (strcmp(op, ">") == 0) return (val){a.v > b.v, true};
  if (strcmp(op, "&") == 0) return (val){(int64_t)(x & y), true};
  return (val){(int64_t)(x | y), true}; /* "|", the last binary operator */
}

static val binary(expr *e, int min_prec, int depth);

static val unary(expr *e, int depth) {
  const val unknown = {0, false};
  if (depth > MAX_NESTING || e->at >= e->count) {
    e->bad = true;
    return unknown;
  }
  const tok t = e->toks[e->at++];
  if (t.kind == TOK_NUM) return (val){t.num, true};
  if (t.kind == TOK_UNKNOWN) return unknown;
  if (strcmp(t.op, "(") == 0) {
    val v = binary(e, 1, depth + 1);
    if (!is_op(e, ")")) e->bad = true;
    e->at++;
    return v;
  }
  val v = unary(e, depth + 1);
  if (!v.known) return unknown;
  if (strcmp(t.op, "!") == 0) return (val){!v.v, true};
  if (strcmp(t.op, "~") == 0) return (val){(int64_t)~(uint64_t)v.v, true};
  if (strcmp(t.op, "-") == 0) return (val){(int64_t)(0u - (uint64_t)v.v), true};
  if (strcmp(t.op, "+") == 0) return v;
  e->bad = true;
  return unknown;
}

static val binary(expr *e, int min_prec, int depth) {
  val lhs = unary(e, depth);
  while (!e->bad && e->at < e->count) {
    const tok *op = &e->toks[e->at];
    const int prec = precedence(op);
    if (prec == 0 || prec < min_prec) break;
    e->at++;
    lhs = apply(op->op, lhs, binary(e, prec + 1, depth + 1));
  }
  return lhs;
}

/* An #if or #elif condition: 1, 0 or UNKNOWN. */
static int condition(scan *s, const char *p, const char *end) {
  expr *e = calloc(1, sizeof *e);
  if (!e) return UNKNOWN;
  tokenize(s, e, p, end, 0);
  val v = {0, false};
  if (!e->bad) v = binary(e, 1, 0);
  const bool whole = !e->bad && e->at == e->count;
  free(e);
  return whole && v.known ? v.v != 0 : UNKNOWN;
}

/* ---- lines ---- */

/* Where the lines read now stand: 1 compiled, 0 left out, UNKNOWN. */
static int region(const scan *s) {
  int on = 1;
  for (size_t i = 0; i < s->depth; i++) {
    if (s->levels[i].on == 0) return 0;
    if (s->levels[i].on == UNKNOWN) on = UNKNOWN;
  }
  return on;
}

static void open_level(scan *s, int on) {
  if (s->depth == MAX_NESTING) {
    s->failed = true;
    return;
  }
  level l = {on, on == 1, on == UNKNOWN};
  s->levels[s->depth++] = l;
}

/* The next branch (#elif's `on`, or #else's 1) of the innermost level. */
static void next_branch(scan *s, int on) {
  if (s->depth == 0) {
    s->failed = true;
    return;
  }
  level *l = &s->levels[s->depth - 1];
  s->depth--; /* the enclosing region decides first */
  const int outer = region(s);
  s->depth++;
  if (outer == 0 || l->taken) on = 0;
  else if (l->unsure && on != 0) on = UNKNOWN;
  l->on = on;
  l->taken = l->taken || on == 1;
  l->unsure = l->unsure || on == UNKNOWN;
}

static void directive(scan *s, const char *p, const char *end) {
  p = skip_blanks(p, end);
  const char *name = p;
  p = ident_end(p, end);
  const size_t len = (size_t)(p - name);
  const char *arg = skip_blanks(p, end);
  const int here = region(s);
#define IS(word) (len == sizeof(word) - 1 && memcmp(name, word, len) == 0)
  if (IS("if") || IS("ifdef") || IS("ifndef")) {
    int on = 0;
    if (here != 0) {
      if (IS("if")) {
        on = condition(s, arg, end);
      } else {
        on = defined(s, arg, (size_t)(ident_end(arg, end) - arg));
        if (IS("ifndef") && on != UNKNOWN) on = !on;
      }
    }
    open_level(s, on);
  } else if (IS("elif")) {
    /* evaluated only where no branch was taken: a later #elif may use
     * macros that only an untaken one leaves undefined */
    const level *l = s->depth > 0 ? &s->levels[s->depth - 1] : NULL;
    next_branch(s, l && !l->taken && here != UNKNOWN ? condition(s, arg, end) : UNKNOWN);
  } else if (IS("else")) {
    next_branch(s, 1);
  } else if (IS("endif")) {
    if (s->depth == 0) s->failed = true;
    else s->depth--;
  } else if ((IS("define") || IS("undef")) && here != 0) {
    const char *macro_name = arg;
    const char *name_end = ident_end(arg, end);
    if (name_end == macro_name) {
      s->failed = true;
      return;
    }
    const size_t macro_len = (size_t)(name_end - macro_name);
    const char *value = skip_blanks(name_end, end);
    size_t value_len = (size_t)(end - value);
    while (value_len > 0 && (value[value_len - 1] == ' ' || value[value_len - 1] == '\t' ||
                             value[value_len - 1] == '\r'))
      value_len--;
    macro_kind kind = IS("undef")  ? MACRO_UNDEFINED
                      : *name_end == '(' ? MACRO_FUNCTION
                                      : MACRO_VALUE;
    if (here == UNKNOWN) kind = MACRO_UNSURE;
    set_macro(s, macro_name, macro_len, kind, value, value_len);
  }
  /* #version, #extension, #line, #pragma, #error: nothing to count */
#undef IS
}

/* Storage blocks declared on a line of code: the keyword `buffer` (GLSL
 * reserves it for them) not followed by ';' (a default `layout(std430)
 * buffer;`). Block arrays would count once each; the library has none,
 * and programs.c's check against the linked program would see one. */
static int blocks_on_line(const char *p, const char *end) {
  int blocks = 0;
  while (p < end) {
    if (!ident_start(*p)) {
      p++;
      continue;
    }
    const char *word = p;
    p = ident_end(p, end);
    if (p - word == 6 && memcmp(word, "buffer", 6) == 0) {
      const char *next = skip_blanks(p, end);
      if (next == end || *next != ';') blocks++;
    }
  }
  return blocks;
}

/* The parts joined, with backslash-newlines spliced out and comments made
 * blanks (their newlines kept), as GLSL's preprocessor reads them. */
static char *clean_source(const char *const *parts, size_t count, size_t *length) {
  size_t total = 0;
  for (size_t i = 0; i < count; i++) total += strlen(parts[i]);
  char *out = malloc(total + 1);
  if (!out) return NULL;
  size_t n = 0;
  for (size_t i = 0; i < count; i++)
    for (const char *c = parts[i]; *c; c++) {
      if (c[0] == '\\' && c[1] == '\n') c++;
      else if (c[0] == '\\' && c[1] == '\r' && c[2] == '\n') c += 2;
      else out[n++] = *c;
    }
  out[n] = '\0';
  for (size_t i = 0; i < n; i++) {
    if (out[i] == '/' && i + 1 < n && out[i + 1] == '/') {
      while (i < n && out[i] != '\n') out[i++] = ' ';
    } else if (out[i] == '/' && i + 1 < n && out[i + 1] == '*') {
      out[i++] = ' ';
      out[i++] = ' ';
      while (i < n && !(out[i] == '*' && i + 1 < n && out[i + 1] == '/')) {
        if (out[i] != '\n') out[i] = ' ';
        i++;
      }
      if (i < n) out[i++] = ' ';
      if (i < n) out[i] = ' ';
    }
  }
  *length = n;
  return out;
}

int _glradix_storage_blocks(const char *const *parts, size_t count) {
  size_t length = 0;
  char *text = clean_source(parts, count, &length);
  scan *s = calloc(1, sizeof *s);
  if (!text || !s) {
    free(text);
    free(s);
    return UNKNOWN;
  }
  int blocks = 0;
  bool unsure = false;
  const char *end = text + length;
  for (const char *line = text; line < end && !s->failed;) {
    const char *eol = memchr(line, '\n', (size_t)(end - line));
    if (!eol) eol = end;
    const char *p = skip_blanks(line, eol);
    if (p < eol && *p == '#') {
      directive(s, p + 1, eol);
    } else {
      const int here = region(s);
      const int found = here != 0 ? blocks_on_line(p, eol) : 0;
      if (here == UNKNOWN && found) unsure = true;
      blocks += found;
    }
    line = eol + 1;
  }
  const bool known = !s->failed && !unsure && s->depth == 0;
  free(text);
  free(s);
  return known ? blocks : UNKNOWN;
}
