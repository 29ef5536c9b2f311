#!/usr/bin/env python3
"""The four Monte Carlo reference workloads of `ssmcheck bench` (W1 decay, W2 tail, W3 Lyapunov,
W4 selective scan) in plain numpy, on the portable counter-based generator that the C reference
(reference.c) and `ssmcheck bench` share, so that all three give the same summaries (to ~1e-12
relative) and their throughputs can be compared in the same rounds.

usage: reference.py w1|w2|w3|w4 [--threads N] [--quick]   (prints one JSON line)

The definitions (sizes, seeds, what is summed) are the ones documented in src/bench/*.rs.
"""
import argparse
import json
import math
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

M64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
DERIVE = 0xD1B54A32D192ED03


def mix64(z):
    """SplitMix64's finaliser on a uint64 array (wrapping arithmetic)."""
    z = z ^ (z >> np.uint64(30))
    z = z * np.uint64(0xBF58476D1CE4E5B9)
    z = z ^ (z >> np.uint64(27))
    z = z * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def derive(seed, tag):
    """The seed of sub-stream `tag` of `seed`."""
    z = np.array([(seed + (tag + 1) * DERIVE) & M64], dtype=np.uint64)
    with np.errstate(over="ignore"):
        return int(mix64(z)[0])


def uniforms(seed, start, count):
    """Elements start..start+count of the uniform stream `seed`, in (0, 1)."""
    i = np.arange(start + 1, start + count + 1, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = mix64(np.uint64(seed) + i * np.uint64(GOLDEN))
    return ((z >> np.uint64(11)).astype(np.float64) + 0.5) * (1.0 / 9007199254740992.0)


def normals(seed, start, count):
    """Normals start..start+count of stream `seed`: Box-Muller on uniform pairs (2p, 2p+1),
    r cos(2 pi u2) then r sin(2 pi u2)."""
    p0, p1 = start // 2, (start + count + 1) // 2
    u = uniforms(seed, 2 * p0, 2 * (p1 - p0)).reshape(-1, 2)
    r = np.sqrt(-2.0 * np.log(u[:, 0]))
    ang = 2.0 * np.pi * u[:, 1]
    z = np.empty(2 * (p1 - p0))
    z[0::2] = r * np.cos(ang)
    z[1::2] = r * np.sin(ang)
    off = start - 2 * p0
    return z[off:off + count]


def softplus(x):
    return np.maximum(x, 0.0) + np.log1p(np.exp(-np.abs(x)))


def pool_map(threads, f, items):
    if threads <= 1:
        return [f(i) for i in items]
    with ThreadPoolExecutor(threads) as ex:
        return list(ex.map(f, items))


def w1(args):
    M, T, H, seed = (4, 20000, 16, 20240601) if args.quick else (64, 1000000, 16, 20240601)
    a = -np.arange(1, H + 1, dtype=np.float64)
    block = 8192

    def path(m):
        s = derive(seed, m)
        x0 = normals(s, 0, 1)[0]
        d0 = softplus(0.5 * x0 - 2.0)
        two_log_b = 2.0 * np.log(np.abs(np.expm1(a * d0) / a))[:, None]
        total, sum_l, last = 0.0, 0.0, 0.0
        for k0 in range(1, T + 1, block):
            n = min(block, T + 1 - k0)
            sk = total + np.cumsum(softplus(0.5 * normals(s, k0, n) - 2.0))
            total = sk[-1]
            terms = 2.0 * a[:, None] * sk[None, :] + two_log_b
            mx = terms.max(axis=0)
            lk = 0.5 * (mx + np.log(np.exp(np.maximum(terms - mx, -700.0)).sum(axis=0)))
            sum_l += lk.sum()
            last = lk[-1]
        return last / total, sum_l

    t0 = time.perf_counter()
    out = pool_map(args.threads, path, range(M))
    wall = time.perf_counter() - t0
    return dict(params=dict(M=M, T=T, H=H, seed=seed), wall=wall, work=float(M * T * H), unit="state-updates/s",
                summary=dict(mean_LT_over_ST=sum(r for r, _ in out) / M), checksum=dict(sum_L=sum(c for _, c in out)))


def log_chi2_moments(c, g):
    """Mean and variance of ln(c + g X^2), X ~ N(0, 1): trapezoid rule on [-16, 16], h = 1/64."""
    x = np.arange(-16 * 64, 16 * 64 + 1) / 64.0
    w = np.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi) / 64.0
    w[0] *= 0.5
    w[-1] *= 0.5
    f = np.log(c + g * x * x)
    mu = float((w * f).sum())
    return mu, float((w * (f - mu) ** 2).sum())


def w2(args):
    N, t, c, g, seed = (2000, 1000, 0.5, 0.499, 20240602) if args.quick else (100000, 10000, 0.5, 0.499, 20240602)
    mu, var = log_chi2_moments(c, g)
    s = derive(seed, 0)
    rows = 8

    def chunk(j0):
        n = min(rows, N - j0)
        x = normals(s, j0 * t, n * t).reshape(n, t)
        return np.log(c + g * x * x).sum(axis=1)

    t0 = time.perf_counter()
    y = np.concatenate(pool_map(args.threads, chunk, range(0, N, rows)))
    d = y - t * mu
    scale = math.sqrt(t) * math.sqrt(var)
    freq = {f"P_s{k}": float((d >= k * scale).mean()) for k in range(4)}
    wall = time.perf_counter() - t0
    return dict(params=dict(N=N, t=t, c=c, gamma=g, seed=seed), wall=wall, work=float(N * t), unit="samples/s",
                summary=freq, checksum=dict(mu=mu, sigma2=var, sum_D=float(d.sum())))


def w3_instance(seed, m, H):
    s = derive(seed, m)
    z = normals(derive(s, 0), 0, H * H).reshape(H, H)
    q, r = np.linalg.qr(z)
    q = q * np.sign(np.diag(r))[None, :]
    decay = np.exp(-(0.5 + 1.5 * uniforms(derive(s, 1), 0, H)))
    abar = (q * decay[None, :]) @ q.T
    scale = 0.1 / math.sqrt(H)
    return abar, normals(derive(s, 2), 0, H) * scale, normals(derive(s, 3), 0, H) * scale, normals(derive(s, 4), 0, 0)


def w3(args):
    inst, k, H, seed = (2, 20000, 16, 20240603) if args.quick else (8, 1000000, 16, 20240603)
    t0 = time.perf_counter()
    parts = [w3_instance(seed, m, H) for m in range(inst)]
    abar = np.stack([p[0] for p in parts])
    gw = np.stack([np.outer(p[1], p[2]) for p in parts])
    xs = np.stack([normals(derive(derive(seed, m), 4), 0, k) for m in range(inst)])
    v = np.full((inst, H, 1), 1.0 / math.sqrt(H))
    norms = np.empty((k, inst))
    mt = np.empty_like(abar)
    for step in range(k):
        np.multiply(gw, (xs[:, step] ** 2)[:, None, None], out=mt)
        mt += abar
        v = mt @ v
        nv = np.sqrt(np.einsum("ijk,ijk->i", v, v))
        norms[step] = nv
        v /= nv[:, None, None]
    exps = np.log(norms).sum(axis=0) / k
    wall = time.perf_counter() - t0
    return dict(params=dict(instances=inst, k=k, H=H, seed=seed), wall=wall, work=float(inst * k * H * H), unit="H^2-steps/s",
                summary=dict(exponents=[float(e) for e in exps]), checksum=dict(sum_exponents=float(exps.sum())))


def w4(args):
    d, N, L, reps, seed = (64, 16, 512, 3, 20240604) if args.quick else (64, 16, 4096, 20, 20240604)
    r = normals(derive(seed, 0), 0, L * d).reshape(L, d)
    b = normals(derive(seed, 1), 0, L * N).reshape(L, N)
    cc = normals(derive(seed, 2), 0, L * N).reshape(L, N)
    u = normals(derive(seed, 3), 0, L * d).reshape(L, d)
    a = -np.repeat(np.arange(1, N + 1, dtype=np.float64)[:, None], d, axis=1)

    def forward():
        delta = softplus(r)
        y = np.empty((L, d))
        h = np.zeros((N, d))
        for t0 in range(0, L, 128):
            da = np.exp(delta[t0:t0 + 128, None, :] * a[None, :, :])
            dbu = (delta[t0:t0 + 128] * u[t0:t0 + 128])[:, None, :] * b[t0:t0 + 128, :, None]
            for i in range(da.shape[0]):
                h = da[i] * h + dbu[i]
                y[t0 + i] = cc[t0 + i] @ h
        return y

    forward()
    t0 = time.perf_counter()
    for _ in range(reps):
        y = forward()
    wall = (time.perf_counter() - t0) / reps
    return dict(params=dict(d=d, N=N, L=L, seed=seed, reps=reps), wall=wall, work=float(d * N * L), unit="state-updates/s",
                summary=dict(sum_y=float(y.sum())), checksum=dict(sum_abs_y=float(np.abs(y).sum()), y_last0=float(y[L - 1, 0])))


WORKLOADS = {"w1": ("decay", w1), "w2": ("tail", w2), "w3": ("lyapunov", w3), "w4": ("scan", w4)}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("workload", choices=sorted(WORKLOADS))
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    args = p.parse_args()
    name, run = WORKLOADS[args.workload]
    r = run(args)
    params = dict(r["params"], threads=args.threads, rng="portable")
    print(json.dumps(dict(workload=name, impl="numpy", params=params, wall_s=r["wall"], throughput=r["work"] / r["wall"],
                          throughput_unit=r["unit"], work=r["work"], summary=r["summary"], checksum=r["checksum"])))


if __name__ == "__main__":
    main()
