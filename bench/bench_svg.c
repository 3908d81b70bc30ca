/* glradix-bench: SVG plot of throughput (Mkeys/s) versus N, log2 x axis. */
#include "bench_svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { W = 900, H = 520, ML = 80, MR = 250, MT = 50, MB = 70 };

static const char *const palette[] = {
  "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
  "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};

typedef struct config {
  int pairs;
  unsigned key_bits, radix_bits;
  const char *dist;
} config;

static int same_config(const config *c, const bench_result *r) {
  return c->pairs == r->pairs && c->key_bits == r->key_bits && c->radix_bits == r->radix_bits &&
         strcmp(c->dist, r->dist) == 0;
}

/* Text with &, <, > and quotes escaped for XML. */
static void put_escaped(FILE *f, const char *s) {
  for (; *s; ++s) {
    switch (*s) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '"': fputs("&quot;", f); break;
    default: fputc(*s, f); break;
    }
  }
}

/* "64K", "1M", "16M" for powers of two from 1024 on, else the number. */
static void size_label(char *buf, size_t len, double n) {
  const double k = n / 1024.0, m = n / (1024.0 * 1024.0), g = m / 1024.0;
  if (g >= 1.0 && g == floor(g))
    snprintf(buf, len, "%.0fG", g);
  else if (m >= 1.0 && m == floor(m))
    snprintf(buf, len, "%.0fM", m);
  else if (k >= 1.0 && k == floor(k))
    snprintf(buf, len, "%.0fK", k);
  else
    snprintf(buf, len, "%.0f", n);
}

/* A 1-2-5 step giving about `ticks` intervals over [0, max]. */
static double nice_step(double max, int ticks) {
  const double raw = max / ticks;
  const double p = pow(10.0, floor(log10(raw)));
  const double f = raw / p;
  return (f <= 1.0 ? 1.0 : f <= 2.0 ? 2.0 : f <= 5.0 ? 5.0 : 10.0) * p;
}

int bench_write_svg(const char *path, const char *title, const bench_result *rows,
                    size_t count) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;

  /* Distinct configurations, in order of first appearance. */
  config *cfg = calloc(count ? count : 1, sizeof *cfg);
  size_t ncfg = 0;
  if (!cfg) {
    fclose(f);
    return -1;
  }
  double xmin = 0, xmax = 0, ymax = 0;
  for (size_t i = 0; i < count; ++i) {
    size_t c = 0;
    while (c < ncfg && !same_config(&cfg[c], &rows[i])) ++c;
    if (c == ncfg) {
      cfg[ncfg].pairs = rows[i].pairs;
      cfg[ncfg].key_bits = rows[i].key_bits;
      cfg[ncfg].radix_bits = rows[i].radix_bits;
      cfg[ncfg].dist = rows[i].dist;
      ++ncfg;
    }
    const double lx = log2((double)rows[i].n);
    if (i == 0 || lx < xmin) xmin = lx;
    if (i == 0 || lx > xmax) xmax = lx;
    if (rows[i].mkeys_per_s > ymax) ymax = rows[i].mkeys_per_s;
  }
  xmin = floor(xmin);
  xmax = ceil(xmax);
  if (xmax - xmin < 1.0) {
    xmin -= 1.0;
    xmax += 1.0;
  }
  if (!(ymax > 0)) ymax = 1.0;
  const double ystep = nice_step(ymax, 5);
  ymax = ceil(ymax * 1.05 / ystep) * ystep;

  const double pw = W - ML - MR, ph = H - MT - MB;
#define PX(lx) (ML + ((lx) - xmin) / (xmax - xmin) * pw)
#define PY(v) (MT + ph - (v) / ymax * ph)

  fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
             "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
          W, H, W, H);
  fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H);
  fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"15\" text-anchor=\"middle\">", ML + (int)pw / 2,
          MT - 20);
  put_escaped(f, title ? title : "glradix throughput");
  fputs("</text>\n", f);

  /* Grid and ticks. */
  int xstride = (int)(xmax - xmin) > 12 ? 2 : 1;
  for (int e = (int)xmin; e <= (int)xmax; e += xstride) {
    char lab[32];
    size_label(lab, sizeof lab, pow(2.0, e));
    const double x = PX(e);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", x, MT, x,
            MT + ph);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", x, MT + ph + 18,
            lab);
  }
  for (double v = 0; v <= ymax + ystep * 1e-6; v += ystep) {
    const double y = PY(v);
    fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", ML, y,
            ML + pw, y);
    fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", ML - 6, y + 4, v);
  }
  fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"black\"/>\n",
          ML, MT, pw, ph);
  fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">N (keys, log2 scale)</text>\n",
          ML + pw / 2, H - 22);
  fprintf(f, "<text x=\"18\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 18 %.1f)\">"
             "throughput (Mkeys/s)</text>\n",
          MT + ph / 2, MT + ph / 2);

  /* One polyline (and its points) per configuration, plus a legend entry. */
  for (size_t c = 0; c < ncfg; ++c) {
    const char *col = palette[c % (sizeof palette / sizeof palette[0])];
    const char *dash = cfg[c].pairs ? "" : " stroke-dasharray=\"6 3\"";
    fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"", col, dash);
    for (size_t i = 0; i < count; ++i)
      if (same_config(&cfg[c], &rows[i]))
        fprintf(f, "%.1f,%.1f ", PX(log2((double)rows[i].n)), PY(rows[i].mkeys_per_s));
    fputs("\"/>\n", f);
    for (size_t i = 0; i < count; ++i)
      if (same_config(&cfg[c], &rows[i]))
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
                PX(log2((double)rows[i].n)), PY(rows[i].mkeys_per_s), col);
    const double ly = MT + 10 + 20.0 * (double)c;
    const double lx = ML + pw + 15;
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"%s/>\n",
            lx, ly, lx + 28, ly, col, dash);
    /* uniform keys, the usual plot, keep their legend as it was */
    const int uniform = strcmp(cfg[c].dist, "uniform") == 0;
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">%s, %u-bit keys, radix %u%s%s</text>\n", lx + 34,
            ly + 4, cfg[c].pairs ? "pairs" : "keys only", cfg[c].key_bits, cfg[c].radix_bits,
            uniform ? "" : ", ", uniform ? "" : cfg[c].dist);
  }
#undef PX
#undef PY
  fputs("</svg>\n", f);
  free(cfg);
  return fclose(f) == 0 ? 0 : -1;
}
