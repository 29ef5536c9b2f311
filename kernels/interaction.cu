// Products of the interaction model's transitions M_j = Ā + x_j² G Wᵀ applied to a vector,
// renormalised each step (mirrors interaction_path in src/mc/paths.rs): one thread per path.
// start = 0: v_0 is the LRD at k = 0 after a prefix of t inputs; start = 1: a Gaussian vector
// (the growth rate then estimates the top Lyapunov exponent); start = 2: the direction (1,…,1).
// Outputs per path: [log‖v_0‖, log growth, log growth after burn-in, increases] and, at each
// of the n_marks record steps, (k, log‖Φ(k) v_0‖).
// Dot products run in 8 interleaved partial sums (index mod 8) of fused multiply-adds and the
// matrix-vector product in 4 column lanes (column mod 4), combined exactly as the CPU loop does.
#include "philox.cuh"
#define SSM_MAX_STATE 32

SSM_DEVICE double ssm_dot(const double* a, const double* b, int h) {
    double l[8] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    for (int i = 0; i < h; ++i) l[i % 8] = fma(a[i], b[i], l[i % 8]);
    return ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]));
}

// out = Ā v + x² (W·v) G, Ā row-major: column j goes to partial sum j mod 4 (column order),
// and the rank-one term is added last, out_i = fma(x²(W·v), G_i, (l0 + l1) + (l2 + l3)).
SSM_DEVICE void ssm_apply(const double* abar, const double* g, const double* w, int h, double x, const double* v, double* out) {
    double c = x * x * ssm_dot(w, v, h);
    for (int i = 0; i < h; ++i) {
        double l[4] = {0.0, 0.0, 0.0, 0.0};
        for (int j = 0; j < h; ++j) l[j % 4] = fma(v[j], abar[i * h + j], l[j % 4]);
        out[i] = fma(c, g[i], (l[0] + l[1]) + (l[2] + l[3]));
    }
}

// ½(ln q − ln q0) + e ln 2: log‖Φ(k)v₀‖ − log‖v₀‖ for the unnormalised vector ṽ·2^e, q = ‖ṽ‖².
SSM_DEVICE double ssm_log_growth(double q, double q0, long long e) {
    return 0.5 * (ssm_ln(q) - ssm_ln(q0)) + (double)e * 0.6931471805599453;
}

SSM_GLOBAL void interaction(const double* abar, const double* bbar, const double* g, const double* w, int h, int start,
                            ssm_u64 t, ssm_u64 horizon, ssm_u64 burn_in, ssm_u64 paths, ssm_u64 first, ssm_u32 k0, ssm_u32 k1,
                            const ssm_u64* marks, int n_marks, double* summary, double* trace) {
    ssm_u64 p = (ssm_u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= paths || h > SSM_MAX_STATE) return;
    SsmStream s = ssm_stream(k0, k1, first + p);
    double v[SSM_MAX_STATE], tmp[SSM_MAX_STATE];
    for (int i = 0; i < h; ++i) v[i] = 0.0;
    if (start == 0) {
        for (ssm_u64 j = 1; j < t; ++j) {
            double x = ssm_normal(&s);
            ssm_apply(abar, g, w, h, x, v, tmp);
            for (int i = 0; i < h; ++i) v[i] = tmp[i] + bbar[i] * x;
        }
        double xt = ssm_normal(&s);
        double c = 2.0 * xt * ssm_dot(w, v, h);
        for (int i = 0; i < h; ++i) v[i] = bbar[i] + c * g[i];
    } else if (start == 1) {
        for (int i = 0; i < h; ++i) v[i] = ssm_normal(&s);
    } else {
        for (int i = 0; i < h; ++i) v[i] = 1.0;
    }
    double n0 = sqrt(ssm_dot(v, v, h));
    double log_v0 = ssm_ln(n0);
    for (int i = 0; i < h; ++i) v[i] /= n0;
    // v stays unnormalised (ṽ·2^e), rescaled by exact powers of two when q = ‖ṽ‖² leaves
    // [2^-400, 2^400]; the step growth exceeds 1 iff q_k > q_{k-1}.
    double q0 = ssm_dot(v, v, h), q_prev = q0, log_at_burn_in = 0.0;
    long long e = 0;
    ssm_u64 increases = 0;
    int next = 0;
    for (ssm_u64 k = 1; k <= horizon; ++k) {
        ssm_apply(abar, g, w, h, ssm_normal(&s), v, tmp);
        for (int i = 0; i < h; ++i) v[i] = tmp[i];
        double q = ssm_dot(v, v, h);
        if (!(q > 3.8725919148493183e-121 && q < 2.5822498780869086e+120) && q > 0.0 && q < SSM_INF) {
            long long sh = ((long long)((ssm_to_bits(q) >> 52) & 0x7ff) - 1023) / 2;
            double down = ssm_from_bits((ssm_bits)(1023 - sh) << 52), down2 = ssm_from_bits((ssm_bits)(1023 - 2 * sh) << 52);
            for (int i = 0; i < h; ++i) v[i] *= down;
            q *= down2;
            q_prev *= down2;
            e += sh;
        }
        if (q > q_prev) ++increases;
        q_prev = q;
        if (k == burn_in) log_at_burn_in = ssm_log_growth(q, q0, e);
        if (next < n_marks && marks[next] == k) {
            double* row = trace + ((ssm_u64)p * n_marks + next) * 2;
            row[0] = (double)k; row[1] = log_v0 + ssm_log_growth(q, q0, e);
            ++next;
        }
    }
    double total = ssm_log_growth(q_prev, q0, e);
    double* out = summary + p * 4;
    out[0] = log_v0; out[1] = total; out[2] = total - log_at_burn_in; out[3] = (double)increases;
}
