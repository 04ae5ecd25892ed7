# The implicit ALS a data team writes in numpy (Hu, Koren, Volinsky 2008): per row, the normal
# equations (YᵀY + Yᵤᵀ(Cᵤ − I)Yᵤ + λI) x = Yᵤᵀ Cᵤ 1, with c = 1 + alpha·r, solved by
# np.linalg.solve. bench/quality/movielens.ts times it against recd's fit on the same ratings.
# Usage: OPENBLAS_NUM_THREADS=1 python3 numpy-als.py ratings.csv factors iterations regularization alpha
# (ratings.csv: user,item,rating per line, dense 0-based ids). Prints {"seconds": s} (the fit only).
import json
import sys
import time

import numpy as np


def rows_of(keys, other, values, n):
    order = np.argsort(keys, kind="stable")
    keys, other, values = keys[order], other[order], values[order]
    bounds = np.searchsorted(keys, np.arange(n + 1))
    return [(other[bounds[r]:bounds[r + 1]], values[bounds[r]:bounds[r + 1]]) for r in range(n)]


def half_step(X, Y, rows, reg, alpha):
    f = Y.shape[1]
    yty = Y.T @ Y
    eye = reg * np.eye(f)
    for r, (idx, val) in enumerate(rows):
        if len(idx) == 0:
            X[r] = 0
            continue
        yi = Y[idx]
        c = 1 + alpha * val
        a = yty + (yi.T * (c - 1)) @ yi + eye
        X[r] = np.linalg.solve(a, yi.T @ c)


def main():
    path, factors, iterations, reg, alpha = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
    data = np.loadtxt(path, delimiter=",", ndmin=2)
    u, i, r = data[:, 0].astype(np.int64), data[:, 1].astype(np.int64), data[:, 2]
    users, items = int(u.max()) + 1, int(i.max()) + 1
    by_user, by_item = rows_of(u, i, r, users), rows_of(i, u, r, items)
    rng = np.random.default_rng(42)
    X = rng.random((users, factors)) * 0.01
    Y = rng.random((items, factors)) * 0.01
    start = time.perf_counter()
    for _ in range(iterations):
        half_step(X, Y, by_user, reg, alpha)
        half_step(Y, X, by_item, reg, alpha)
    print(json.dumps({"seconds": time.perf_counter() - start}))


main()
