// The LRD of a diagonal selective SSM in log space (mirrors diagonal_lrd_path in src/mc/paths.rs):
// one thread per path; LRD(t+k,t)_n = e^{a_n S_k} B̄_{t,n}, S_k = Σ_{j=1}^k softplus(w x_j + b).
// Outputs per path: [log‖B̄_t‖, min margin, argmin k, S_K, log‖LRD(t+K,t)‖, Σ_k log‖LRD(t+k,t)‖]
// and, at each of the n_marks record steps, (k, S_k, log‖LRD‖).
//
// SSM_STEP_OFFSET exists only for the negative control of the agreement test (a planted
// off-by-one in the step loop); it is 0 in every real build.
#include "philox.cuh"
#ifndef SSM_STEP_OFFSET
#define SSM_STEP_OFFSET 0
#endif
#define SSM_MAX_MODES 64

// ½ log Σ_n e^{2(a_n s + log_b[n])}, largest term first (model::log_lrd_norm).
SSM_DEVICE double ssm_log_lrd_norm(const double* a, const double* log_b, int h, double s) {
    double mx = -SSM_INF;
    for (int n = 0; n < h; ++n) { double term = 2.0 * (a[n] * s + log_b[n]); mx = term > mx ? term : mx; }
    if (mx == -SSM_INF) return mx;
    double tot = 0.0;
    for (int n = 0; n < h; ++n) tot += ssm_exp(2.0 * (a[n] * s + log_b[n]) - mx);
    return 0.5 * (mx + ssm_ln(tot));
}

SSM_GLOBAL void diagonal_lrd(const double* a, const double* b, int h, double w, double bias, int zoh,
                             ssm_u64 horizon, ssm_u64 paths, ssm_u64 first, double claimed_rate, ssm_u32 k0, ssm_u32 k1,
                             const ssm_u64* marks, int n_marks, double* summary, double* trace) {
    ssm_u64 p = (ssm_u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= paths || h > SSM_MAX_MODES) return;
    SsmStream s = ssm_stream(k0, k1, first + p);
    double dt = ssm_softplus(w * ssm_normal(&s) + bias);
    double log_b[SSM_MAX_MODES];
    for (int n = 0; n < h; ++n) {
        double bbar = (zoh && a[n] != 0.0) ? ssm_expm1(dt * a[n]) * (1.0 / a[n]) * b[n] : dt * b[n];
        log_b[n] = ssm_ln(fabs(bbar));
    }
    double log_bbar = ssm_log_lrd_norm(a, log_b, h, 0.0);
    double sum = 0.0, comp = 0.0, min_margin = SSM_INF, s_final = 0.0, lrd_final = log_bbar, sum_log_lrd = 0.0;
    ssm_u64 argmin = 0;
    int next = 0;
    for (ssm_u64 k = 1; k <= horizon - SSM_STEP_OFFSET; ++k) {
        double d = ssm_softplus(w * ssm_normal(&s) + bias);
        double t = sum + d;
        comp += fabs(sum) >= fabs(d) ? (sum - t) + d : (d - t) + sum;
        sum = t;
        double sk = sum + comp;
        double log_lrd = ssm_log_lrd_norm(a, log_b, h, sk);
        double margin = (claimed_rate * sk + log_bbar - log_lrd) / (1.0 + fabs(claimed_rate * sk));
        if (margin < min_margin) { min_margin = margin; argmin = k; }
        sum_log_lrd += log_lrd;
        if (next < n_marks && marks[next] == k) {
            double* row = trace + ((ssm_u64)p * n_marks + next) * 3;
            row[0] = (double)k; row[1] = sk; row[2] = log_lrd;
            s_final = sk; lrd_final = log_lrd;
            ++next;
        }
    }
    double* out = summary + p * 6;
    out[0] = log_bbar; out[1] = min_margin; out[2] = (double)argmin; out[3] = s_final; out[4] = lrd_final;
    out[5] = sum_log_lrd;
}
