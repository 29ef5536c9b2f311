// Products of the interaction model's transitions M_j = Ā + x_j² G Wᵀ applied to a vector,
// renormalised each step (mirrors interaction_path in src/mc/cpu.rs): one thread per path.
// start = 0: v_0 is the LRD at k = 0 after a prefix of t inputs; start = 1: a Gaussian vector
// (the growth rate then estimates the top Lyapunov exponent).
// Outputs per path: [log‖v_0‖, log growth, log growth after burn-in, increases] and, at each
// of the n_marks record steps, (k, log‖Φ(k) v_0‖).
#include "philox.cuh"
#define SSM_MAX_STATE 32

SSM_DEVICE double ssm_dot(const double* a, const double* b, int h) {
    double s = 0.0;
    for (int i = 0; i < h; ++i) s += a[i] * b[i];
    return s;
}

// out = Ā v + x² (W·v) G
SSM_DEVICE void ssm_apply(const double* abar, const double* g, const double* w, int h, double x, const double* v, double* out) {
    double c = x * x * ssm_dot(w, v, h);
    for (int i = 0; i < h; ++i) out[i] = ssm_dot(abar + i * h, v, h) + c * g[i];
}

SSM_GLOBAL void interaction(const double* abar, const double* bbar, const double* g, const double* w, int h, int start,
                            ssm_u64 t, ssm_u64 horizon, ssm_u64 burn_in, ssm_u64 paths, ssm_u32 k0, ssm_u32 k1,
                            const ssm_u64* marks, int n_marks, double* summary, double* trace) {
    ssm_u64 p = (ssm_u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= paths || h > SSM_MAX_STATE) return;
    SsmStream s = ssm_stream(k0, k1, p);
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
    } else {
        for (int i = 0; i < h; ++i) v[i] = ssm_normal(&s);
    }
    double n0 = sqrt(ssm_dot(v, v, h));
    double log_v0 = log(n0);
    for (int i = 0; i < h; ++i) v[i] /= n0;
    double log_acc = 0.0, log_at_burn_in = 0.0;
    ssm_u64 increases = 0;
    int next = 0;
    for (ssm_u64 k = 1; k <= horizon; ++k) {
        ssm_apply(abar, g, w, h, ssm_normal(&s), v, tmp);
        double n = sqrt(ssm_dot(tmp, tmp, h));
        if (n > 1.0) ++increases;
        log_acc += log(n);
        for (int i = 0; i < h; ++i) v[i] = tmp[i] / n;
        if (k == burn_in) log_at_burn_in = log_acc;
        if (next < n_marks && marks[next] == k) {
            double* row = trace + ((ssm_u64)p * n_marks + next) * 2;
            row[0] = (double)k; row[1] = log_v0 + log_acc;
            ++next;
        }
    }
    double* out = summary + p * 4;
    out[0] = log_v0; out[1] = log_acc; out[2] = log_acc - log_at_burn_in; out[3] = (double)increases;
}
