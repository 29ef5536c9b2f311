/* The four Monte Carlo reference workloads of `ssmcheck bench` (W1 decay, W2 tail, W3 Lyapunov,
 * W4 selective scan) in C with OpenMP, on the portable counter-based generator shared with
 * reference.py and `ssmcheck bench` (definitions: src/bench/*.rs).
 *
 * build: gcc -O3 -march=native -ffast-math -fopenmp reference.c -o reference -lm
 * usage: OMP_NUM_THREADS=N ./reference w1|w2|w3|w4 [--quick] [--repeat R]   (prints one JSON line)
 *
 * -ffast-math lets gcc call glibc's vectorised exp/log/sin/cos (libmvec); it changes results in
 * the last bits only, well inside the 1e-9 relative agreement the comparison asks for.
 */
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static uint64_t derive(uint64_t seed, uint64_t tag) { return mix64(seed + (tag + 1) * 0xD1B54A32D192ED03ULL); }
static inline double uniform(uint64_t seed, uint64_t i) {
    return ((double)(mix64(seed + (i + 1) * 0x9E3779B97F4A7C15ULL) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}
/* Normals [start, start + n) of stream `seed` (Box-Muller on uniform pairs (2p, 2p+1)). */
static inline void pair(uint64_t seed, uint64_t p, double *z0, double *z1) {
    double r = sqrt(-2.0 * log(uniform(seed, 2 * p))), ang = 2.0 * M_PI * uniform(seed, 2 * p + 1);
    *z0 = r * cos(ang);
    *z1 = r * sin(ang);
}
/* Normals [start, start + n) of stream `seed`: Box-Muller on uniform pairs (2p, 2p+1), in
 * separate passes over blocks of pairs so that gcc vectorises each (integer hashing, then
 * libmvec's log, sin and cos). */
#define PAIRS 256
#define CH 64 /* the most channels of W4 */
static void normals(uint64_t seed, uint64_t start, size_t n, double *out) {
    size_t j = 0;
    double z0, z1;
    if (start % 2 == 1 && n > 0) { /* an odd start: the second half of a pair */
        pair(seed, start / 2, &z0, &z1);
        out[j++] = z1;
    }
    uint64_t p0 = (start + j) / 2;
    size_t pairs = (n - j) / 2;
    double u1[PAIRS], u2[PAIRS], r[PAIRS], c[PAIRS], s[PAIRS];
    for (size_t q0 = 0; q0 < pairs; q0 += PAIRS) {
        size_t m = pairs - q0 < PAIRS ? pairs - q0 : PAIRS;
        for (size_t q = 0; q < m; q++) {
            u1[q] = uniform(seed, 2 * (p0 + q0 + q));
            u2[q] = uniform(seed, 2 * (p0 + q0 + q) + 1);
        }
        for (size_t q = 0; q < m; q++) r[q] = sqrt(-2.0 * log(u1[q]));
        for (size_t q = 0; q < m; q++) c[q] = cos(2.0 * M_PI * u2[q]);
        for (size_t q = 0; q < m; q++) s[q] = sin(2.0 * M_PI * u2[q]);
        for (size_t q = 0; q < m; q++) {
            out[j + 2 * (q0 + q)] = r[q] * c[q];
            out[j + 2 * (q0 + q) + 1] = r[q] * s[q];
        }
    }
    j += 2 * pairs;
    if (j < n) {
        pair(seed, (start + j) / 2, &z0, &z1);
        out[j] = z0;
    }
}
static inline double softplus(double x) { return fmax(x, 0.0) + log1p(exp(-fabs(x))); }
static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}
/* --repeat R: each workload runs R times in one process and emits once, with the median of the
 * R timed regions as wall_s (and their min and max in params), so a short workload's time holds
 * still between invocations. */
static int repeat = 1, run_index = 0;
static double walls[64];
static int cmp_wall(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
static void emit(const char *w, const char *params, double wall, double work, const char *unit, const char *summary, const char *checksum) {
    walls[run_index++] = wall;
    if (run_index < repeat) return;
    qsort(walls, repeat, sizeof walls[0], cmp_wall);
    double med = repeat % 2 ? walls[repeat / 2] : 0.5 * (walls[repeat / 2 - 1] + walls[repeat / 2]);
    printf("{\"workload\": \"%s\", \"impl\": \"c\", \"params\": {%s, \"threads\": %d, \"rng\": \"portable\", \"repeat\": %d, "
           "\"wall_s_min\": %.9g, \"wall_s_max\": %.9g}, \"wall_s\": %.9g, \"throughput\": %.9g, \"throughput_unit\": \"%s\", "
           "\"work\": %.9g, \"summary\": {%s}, \"checksum\": {%s}}\n",
           w, params, omp_get_max_threads(), repeat, walls[0], walls[repeat - 1], med, work / med, unit, work, summary, checksum);
}

#define BLOCK 4096

static void w1(int quick) {
    const long M = quick ? 4 : 64, T = quick ? 20000 : 1000000;
    enum { H = 16 };
    const uint64_t seed = 20240601;
    double ratio = 0.0, sum_l = 0.0;
    double t0 = now();
#pragma omp parallel for schedule(dynamic) reduction(+ : ratio, sum_l)
    for (long m = 0; m < M; m++) {
        uint64_t s = derive(seed, m);
        /* One block of steps at a time: S_k as a running sum, then one vectorised loop over the
         * block's steps that keeps each step's largest term and its sum of exp(term - max)
         * (clamped at -700: an exact no-op next to the max term 1) in registers, the H modes
         * unrolled inside. */
        double x[BLOCK], sk[BLOCK], a[H], tlb[H], total = 0.0, last = 0.0, mine = 0.0;
        normals(s, 0, 1, x);
        double d0 = softplus(0.5 * x[0] - 2.0);
        for (int n = 0; n < H; n++) {
            a[n] = -(n + 1.0);
            tlb[n] = 2.0 * log(fabs(expm1(a[n] * d0) / a[n]));
        }
        for (long k0 = 1; k0 <= T; k0 += BLOCK) {
            long nb = T + 1 - k0 < BLOCK ? T + 1 - k0 : BLOCK;
            normals(s, k0, nb, x);
#pragma omp simd
            for (long i = 0; i < nb; i++) x[i] = softplus(0.5 * x[i] - 2.0);
            for (long i = 0; i < nb; i++) sk[i] = total += x[i];
#pragma omp simd reduction(+ : mine)
            for (long i = 0; i < nb; i++) {
                double mx = -INFINITY, acc = 0.0;
#pragma GCC unroll 16
                for (int n = 0; n < H; n++) mx = fmax(mx, 2.0 * a[n] * sk[i] + tlb[n]);
#pragma GCC unroll 16
                for (int n = 0; n < H; n++) acc += exp(fmax(2.0 * a[n] * sk[i] + tlb[n] - mx, -700.0));
                x[i] = 0.5 * (mx + log(acc));
                mine += x[i];
            }
            last = x[nb - 1];
        }
        ratio += last / total;
        sum_l += mine;
    }
    double wall = now() - t0;
    char p[128], su[128], ck[128];
    snprintf(p, sizeof p, "\"M\": %ld, \"T\": %ld, \"H\": %d, \"seed\": %llu", M, T, H, (unsigned long long)seed);
    snprintf(su, sizeof su, "\"mean_LT_over_ST\": %.17g", ratio / M);
    snprintf(ck, sizeof ck, "\"sum_L\": %.17g", sum_l);
    emit("decay", p, wall, (double)M * T * H, "state-updates/s", su, ck);
}

/* Mean and variance of ln(c + g X^2) by the trapezoid rule on [-16, 16], h = 1/64. */
static void log_chi2_moments(double c, double g, double *mu, double *var) {
    double m = 0.0, v = 0.0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = -16 * 64; i <= 16 * 64; i++) {
            double x = i / 64.0, w = exp(-0.5 * x * x) / sqrt(2.0 * M_PI) / 64.0 * (abs(i) == 16 * 64 ? 0.5 : 1.0);
            double f = log(c + g * x * x);
            if (pass == 0) m += w * f; else v += w * (f - m) * (f - m);
        }
    *mu = m;
    *var = v;
}

static void w2(int quick) {
    const long N = quick ? 2000 : 100000, t = quick ? 1000 : 10000;
    const double c = 0.5, g = 0.499;
    const uint64_t seed = 20240602, s = derive(seed, 0);
    double mu, var;
    log_chi2_moments(c, g, &mu, &var);
    const double scale = sqrt((double)t) * sqrt(var);
    long counts[4] = {0, 0, 0, 0};
    double sum_d = 0.0;
    double t0 = now();
#pragma omp parallel for schedule(static) reduction(+ : sum_d, counts[:4])
    for (long j = 0; j < N; j++) {
        double x[BLOCK], y = 0.0;
        for (long i0 = 0; i0 < t; i0 += BLOCK) {
            long nb = t - i0 < BLOCK ? t - i0 : BLOCK;
            normals(s, (uint64_t)j * t + i0, nb, x);
            for (long i = 0; i < nb; i++) x[i] = log(c + g * x[i] * x[i]);
            for (long i = 0; i < nb; i++) y += x[i];
        }
        double d = y - t * mu;
        sum_d += d;
        for (int k = 0; k < 4; k++) counts[k] += d >= k * scale;
    }
    double wall = now() - t0;
    char p[160], su[200], ck[160];
    snprintf(p, sizeof p, "\"N\": %ld, \"t\": %ld, \"c\": %g, \"gamma\": %g, \"seed\": %llu", N, t, c, g, (unsigned long long)seed);
    snprintf(su, sizeof su, "\"P_s0\": %.17g, \"P_s1\": %.17g, \"P_s2\": %.17g, \"P_s3\": %.17g", (double)counts[0] / N, (double)counts[1] / N,
             (double)counts[2] / N, (double)counts[3] / N);
    snprintf(ck, sizeof ck, "\"mu\": %.17g, \"sigma2\": %.17g, \"sum_D\": %.17g", mu, var, sum_d);
    emit("tail", p, wall, (double)N * t, "samples/s", su, ck);
}

enum { H3 = 16, GROUP = 4 };
/* One instance of W3: Abar = Q diag(e^{-u}) Q^T (Q from modified Gram-Schmidt on Z's columns,
 * so R_jj > 0), G and W scaled normals, x_t its own stream. */
struct w3_inst {
    double at[H3][H3]; /* Abar transposed: column j of Abar is at[j] */
    double g[H3], w[H3], v[H3], sum_log;
    uint64_t xs;
};
static void w3_setup(uint64_t seed, long m, struct w3_inst *in) {
    uint64_t s = derive(seed, m);
    double z[H3 * H3], q[H3][H3], decay[H3];
    normals(derive(s, 0), 0, H3 * H3, z);
    for (int j = 0; j < H3; j++) {
        double col[H3];
        for (int i = 0; i < H3; i++) col[i] = z[i * H3 + j];
        for (int p = 0; p < j; p++) {
            double dot = 0.0;
            for (int i = 0; i < H3; i++) dot += q[i][p] * col[i];
            for (int i = 0; i < H3; i++) col[i] -= dot * q[i][p];
        }
        double nrm = 0.0;
        for (int i = 0; i < H3; i++) nrm += col[i] * col[i];
        nrm = sqrt(nrm);
        for (int i = 0; i < H3; i++) q[i][j] = col[i] / nrm;
    }
    for (int n = 0; n < H3; n++) decay[n] = exp(-(0.5 + 1.5 * uniform(derive(s, 1), n)));
    for (int i = 0; i < H3; i++)
        for (int j = 0; j < H3; j++) {
            double acc = 0.0;
            for (int p = 0; p < H3; p++) acc += q[i][p] * decay[p] * q[j][p];
            in->at[j][i] = acc;
        }
    normals(derive(s, 2), 0, H3, in->g);
    normals(derive(s, 3), 0, H3, in->w);
    for (int i = 0; i < H3; i++) {
        in->g[i] *= 0.1 / sqrt((double)H3);
        in->w[i] *= 0.1 / sqrt((double)H3);
        in->v[i] = 1.0 / sqrt((double)H3);
    }
    in->sum_log = 0.0;
    in->xs = derive(s, 4);
}
/* Instances m0..m0+count (count <= GROUP) advance in lockstep in the lanes of one vector: lane q
 * holds instance q (a partial group repeats instance m0 in its spare lanes and drops them), so
 * that the product of all GROUP instances is vertical FMAs with no broadcast or horizontal sum,
 * and the rows' FMA chains give the core independent work. Per step: W.v, then the product four
 * rows at a time, column by column into four partial sums (columns j = 0, 4, 8, 12 into the
 * first, 1, 5, 9, 13 into the second ...: short FMA chains, sixteen accumulators in registers),
 * the rank-one term, the norm, and the division that normalises v. The norms are kept and their
 * logarithms taken once per block, as one vectorised pass: no log on the step-to-step chain. */
typedef double v4d __attribute__((vector_size(GROUP * sizeof(double))));
struct w3_lanes {
    v4d at[H3][H3]; /* at[j][i] lane q: Abar_q[i][j] */
    v4d g[H3], w[H3], v[H3];
};
static void w3_group(uint64_t seed, long m0, int count, long k, double *exps) {
    struct w3_inst in[GROUP];
    struct w3_lanes L;
    static double x[GROUP][BLOCK], norms[GROUP][BLOCK];
#pragma omp threadprivate(x, norms)
    for (int q = 0; q < GROUP; q++) w3_setup(seed, m0 + (q < count ? q : 0), &in[q]);
    for (int q = 0; q < GROUP; q++)
        for (int i = 0; i < H3; i++) {
            for (int j = 0; j < H3; j++) L.at[j][i][q] = in[q].at[j][i];
            L.g[i][q] = in[q].g[i];
            L.w[i][q] = in[q].w[i];
            L.v[i][q] = in[q].v[i];
        }
    for (long t0 = 0; t0 < k; t0 += BLOCK) {
        long nb = k - t0 < BLOCK ? k - t0 : BLOCK;
        for (int q = 0; q < GROUP; q++) {
            normals(in[q].xs, t0, nb, x[q]);
            for (long t = 0; t < nb; t++) x[q][t] *= x[q][t];
        }
        for (long t = 0; t < nb; t++) {
            v4d xx, wv = {0}, nrm = {0}, nv[H3];
            for (int q = 0; q < GROUP; q++) xx[q] = x[q][t];
            for (int i = 0; i < H3; i++) wv += L.w[i] * L.v[i];
            const v4d coef = xx * wv;
            for (int i0 = 0; i0 < H3; i0 += 4) {
                v4d part[4][4] = {{{0}}};
#pragma GCC unroll 4
                for (int j = 0; j < H3; j += 4)
                    for (int r = 0; r < 4; r++)
                        for (int c = 0; c < 4; c++) part[c][r] += L.at[j + c][i0 + r] * L.v[j + c];
                for (int r = 0; r < 4; r++) {
                    nv[i0 + r] = coef * L.g[i0 + r] + ((part[0][r] + part[1][r]) + (part[2][r] + part[3][r]));
                    nrm += nv[i0 + r] * nv[i0 + r];
                }
            }
            for (int q = 0; q < GROUP; q++) {
                nrm[q] = sqrt(nrm[q]);
                norms[q][t] = nrm[q];
            }
            const v4d inv = 1.0 / nrm;
            for (int i = 0; i < H3; i++) L.v[i] = nv[i] * inv;
        }
        for (int q = 0; q < count; q++) {
            double acc = 0.0;
#pragma omp simd reduction(+ : acc)
            for (long t = 0; t < nb; t++) acc += log(norms[q][t]);
            in[q].sum_log += acc;
        }
    }
    for (int q = 0; q < count; q++) exps[m0 + q] = in[q].sum_log / k;
}

static void w3(int quick) {
    const long inst = quick ? 2 : 8, k = quick ? 20000 : 1000000;
    const uint64_t seed = 20240603;
    double exps[8];
    double t0 = now();
    /* Groups of instances; with two threads, each takes half of the groups. */
    long groups = (inst + GROUP - 1) / GROUP, per = groups < omp_get_max_threads() ? (inst + omp_get_max_threads() - 1) / omp_get_max_threads() : GROUP;
#pragma omp parallel for schedule(static)
    for (long m0 = 0; m0 < inst; m0 += per) w3_group(seed, m0, (int)(inst - m0 < per ? inst - m0 : per), k, exps);
    double wall = now() - t0;
    char p[128], su[400], ck[80];
    int off = snprintf(su, sizeof su, "\"exponents\": [");
    double sum = 0.0;
    for (long m = 0; m < inst; m++) {
        off += snprintf(su + off, sizeof su - off, "%s%.17g", m ? ", " : "", exps[m]);
        sum += exps[m];
    }
    snprintf(su + off, sizeof su - off, "]");
    snprintf(p, sizeof p, "\"instances\": %ld, \"k\": %ld, \"H\": %d, \"seed\": %llu", inst, k, H3, (unsigned long long)seed);
    snprintf(ck, sizeof ck, "\"sum_exponents\": %.17g", sum);
    emit("lyapunov", p, wall, (double)inst * k * H3 * H3, "H^2-steps/s", su, ck);
}

static void w4(int quick) {
    const int d = 64, N = 16, L = quick ? 512 : 4096, reps = quick ? 3 : 200;
    const uint64_t seed = 20240604;
    double *r = malloc(sizeof(double) * L * d), *b = malloc(sizeof(double) * L * N), *c = malloc(sizeof(double) * L * N);
    double *u = malloc(sizeof(double) * L * d), *y = malloc(sizeof(double) * L * d);
    normals(derive(seed, 0), 0, (size_t)L * d, r);
    normals(derive(seed, 1), 0, (size_t)L * N, b);
    normals(derive(seed, 2), 0, (size_t)L * N, c);
    normals(derive(seed, 3), 0, (size_t)L * d, u);
    /* One contiguous run of channels per thread, in whole 8-wide vectors. */
    const int threads = omp_get_max_threads(), per = ((d / 8 + threads - 1) / threads) * 8;
    double t0 = 0.0;
    for (int rep = -1; rep < reps; rep++) {
        if (rep == 0) t0 = now(); /* one warm-up forward */
#pragma omp parallel for schedule(static)
        for (int c0 = 0; c0 < d; c0 += per) {
            /* State h[n][c] for the w channels of one thread: each state row is a few vector
             * registers, and the rows' exponentials are independent chains the core overlaps. */
            const int w = d - c0 < per ? d - c0 : per;
            double h[16][CH], dl[CH], dbu[CH], acc[CH];
            memset(h, 0, sizeof h);
            for (int t = 0; t < L; t++) {
                for (int ch = 0; ch < w; ch++) {
                    dl[ch] = softplus(r[t * d + c0 + ch]);
                    dbu[ch] = dl[ch] * u[t * d + c0 + ch];
                    acc[ch] = 0.0;
                }
                for (int n = 0; n < N; n++) {
                    double bn = b[t * N + n], cn = c[t * N + n], an = -(n + 1.0);
#pragma omp simd
                    for (int ch = 0; ch < w; ch++) {
                        h[n][ch] = exp(an * dl[ch]) * h[n][ch] + dbu[ch] * bn;
                        acc[ch] += cn * h[n][ch];
                    }
                }
                for (int ch = 0; ch < w; ch++) y[t * d + c0 + ch] = acc[ch];
            }
        }
    }
    double wall = (now() - t0) / reps, sum = 0.0, sum_abs = 0.0;
    for (long i = 0; i < (long)L * d; i++) {
        sum += y[i];
        sum_abs += fabs(y[i]);
    }
    char p[128], su[80], ck[128];
    snprintf(p, sizeof p, "\"d\": %d, \"N\": %d, \"L\": %d, \"seed\": %llu, \"reps\": %d", d, N, L, (unsigned long long)seed, reps);
    snprintf(su, sizeof su, "\"sum_y\": %.17g", sum);
    snprintf(ck, sizeof ck, "\"sum_abs_y\": %.17g, \"y_last0\": %.17g", sum_abs, y[(L - 1) * d]);
    emit("scan", p, wall, (double)d * N * L, "state-updates/s", su, ck);
    free(r), free(b), free(c), free(u), free(y);
}

int main(int argc, char **argv) {
    int quick = 0;
    const char *usage = "usage: %s w1|w2|w3|w4 [--quick] [--repeat R]   (R in 1..64)\n";
    if (argc < 2) {
        fprintf(stderr, usage, argv[0]);
        return 2;
    }
    for (int i = 2; i < argc; i++) {
        char *end = NULL;
        if (!strcmp(argv[i], "--quick")) quick = 1;
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc && (repeat = (int)strtol(argv[++i], &end, 10), *end == '\0') && repeat >= 1 && repeat <= 64) continue;
        else {
            fprintf(stderr, usage, argv[0]);
            return 2;
        }
    }
    void (*work)(int) = !strcmp(argv[1], "w1") ? w1 : !strcmp(argv[1], "w2") ? w2 : !strcmp(argv[1], "w3") ? w3 : !strcmp(argv[1], "w4") ? w4 : NULL;
    if (!work) {
        fprintf(stderr, "unknown workload '%s' (expected w1, w2, w3 or w4)\n", argv[1]);
        return 2;
    }
    for (int r = 0; r < repeat; r++) work(quick);
    return 0;
}
