#!/usr/bin/python3
"""Train the AI lab's built-in insect counter and pack it as an l5d.

Runs on Debian's python3-torch (1.13), python3-onnx and python3-pil:

    go run ./tools/ailab/trapset -out /tmp/traps/train -n 4000 -seed 1 -year 2024
    go run ./tools/ailab/trapset -out /tmp/traps/test  -n 1000 -seed 2 -year 2025
    /usr/bin/python3 tools/ailab/train_counter.py --train /tmp/traps/train --test /tmp/traps/test

It writes internal/ailab/builtin/insect-counter.l5d (docs/ai-lab.md), the
test fixtures internal/ailab/testdata/counter-ref-*.png with
counter-ref.json (the counts this script's own forward pass gives for them,
which the Go runtime must match), and prints the held-out error, overall
and by light, rain and catch size. Everything is seeded: the same pictures
give the same weights.

The network is a small CNN that counts by density: every 4x4 pixel cell is
embedded (a 4x4 convolution with stride 4), a 3x3 convolution over the cells
looks at 12x12 pixels around each, two 1x1 convolutions turn that into the
number of insects the cell holds, and the cells are summed. It is exported
to ONNX opset 13 written out as Reshape, Transpose, Slice, Concat, MatMul,
Add and Relu, all of which the Go runtime (gonnx) runs, and MatMul-based
so that it is quick there. It is exported in float64.
"""

import argparse
import csv
import io
import json
import os
import random
import sys
import time
import zipfile

import numpy as np
import torch
import torch.nn as nn
from PIL import Image

W, H = 320, 240
CELL = 4
GW, GH = W // CELL, H // CELL  # 80 x 60 cells
C1, C2, C3 = 16, 32, 16
MEAN = [0.45, 0.45, 0.45]
STD = [0.25, 0.25, 0.25]
ELEMENTS = [{"name": "Moth", "unit": "head", "identifier": "moth"}]
SEED = 20240601


def load(folder):
    rows = list(csv.DictReader(open(os.path.join(folder, "counts.csv"))))
    pics = np.zeros((len(rows), H, W, 3), dtype=np.uint8)
    for i, r in enumerate(rows):
        img = Image.open(os.path.join(folder, r["file"])).convert("RGB")
        if img.size != (W, H):
            img = img.resize((W, H), Image.BILINEAR)
        pics[i] = np.asarray(img)
    counts = np.array([float(r["count"]) for r in rows], dtype=np.float32)
    return pics, counts, rows


def to_input(pics):
    """uint8 NHWC pictures -> normalised float NCHW, as the Go side does."""
    x = torch.from_numpy(pics).permute(0, 3, 1, 2).float() / 255.0
    mean = torch.tensor(MEAN).view(1, 3, 1, 1)
    std = torch.tensor(STD).view(1, 3, 1, 1)
    return (x - mean) / std


class Counter(nn.Module):
    def __init__(self, n_out):
        super().__init__()
        self.embed = nn.Conv2d(3, C1, CELL, stride=CELL)
        self.context = nn.Conv2d(C1, C2, 3)  # valid: 58 x 78 cells
        self.mix = nn.Conv2d(C2, C3, 1)
        self.head = nn.Conv2d(C3, n_out, 1)

    def density(self, x):
        h = torch.relu(self.embed(x))
        h = torch.relu(self.context(h))
        h = torch.relu(self.mix(h))
        return self.head(h)

    def forward(self, x):
        return self.density(x).sum(dim=(2, 3))


class Export(nn.Module):
    """The same function for one picture, written with MatMul on cells."""

    def __init__(self, m):
        super().__init__()
        n_out = m.head.out_channels
        self.w1 = nn.Parameter(m.embed.weight.detach().reshape(C1, 3 * CELL * CELL).t().contiguous())
        self.b1 = nn.Parameter(m.embed.bias.detach().clone())
        # 3x3 context: input laid out as the 9 shifted cell grids (dy, dx)
        # concatenated along channels, each with C1 channels.
        w2 = m.context.weight.detach().permute(2, 3, 1, 0).reshape(9 * C1, C2)
        self.w2 = nn.Parameter(w2.contiguous())
        self.b2 = nn.Parameter(m.context.bias.detach().clone())
        self.w3 = nn.Parameter(m.mix.weight.detach().reshape(C3, C2).t().contiguous())
        self.b3 = nn.Parameter(m.mix.bias.detach().clone())
        self.w4 = nn.Parameter(m.head.weight.detach().reshape(n_out, C3).t().contiguous())
        self.b4 = nn.Parameter(m.head.bias.detach().clone())
        self.ones = nn.Parameter(torch.ones(1, (GH - 2) * (GW - 2)))
        self.n_out = n_out

    def forward(self, x):
        # cells: [1,3,60,4,80,4] -> [60,80,3,4,4] -> [4800, 48]
        c = x.reshape(1, 3, GH, CELL, GW, CELL).permute(0, 2, 4, 1, 3, 5).reshape(GH * GW, 3 * CELL * CELL)
        h = torch.relu(c @ self.w1 + self.b1)  # [4800, C1]
        g = h.reshape(GH, GW, C1)
        parts = [g[dy:dy + GH - 2, dx:dx + GW - 2, :] for dy in range(3) for dx in range(3)]
        g = torch.cat(parts, dim=2).reshape((GH - 2) * (GW - 2), 9 * C1)
        h = torch.relu(g @ self.w2 + self.b2)
        h = torch.relu(h @ self.w3 + self.b3)
        d = h @ self.w4 + self.b4  # [cells, n_out]
        return self.ones @ d  # [1, n_out]


def report(name, pred, counts, rows):
    err = np.abs(pred - counts)
    out = {"pictures": len(counts), "mae": float(err.mean()), "meanCount": float(counts.mean()),
           "relative": float(err.sum() / max(counts.sum(), 1))}
    groups = {
        "night (light < 0.5)": [float(r["light"]) < 0.5 for r in rows],
        "day (light >= 0.5)": [float(r["light"]) >= 0.5 for r in rows],
        "rain": [r["rain"] == "1" for r in rows],
        "dry": [r["rain"] == "0" for r in rows],
        "catch 0-20": [c <= 20 for c in counts],
        "catch 21-80": [20 < c <= 80 for c in counts],
        "catch 81-200": [c > 80 for c in counts],
    }
    out["groups"] = {}
    for g, mask in groups.items():
        mask = np.array(mask)
        if mask.any():
            out["groups"][g] = {"pictures": int(mask.sum()), "mae": float(err[mask].mean()),
                                "meanCount": float(counts[mask].mean()),
                                "relative": float(err[mask].sum() / max(counts[mask].sum(), 1))}
    print(name, json.dumps(out, indent=1))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--train", required=True)
    ap.add_argument("--test", required=True)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--out", default="internal/ailab/builtin/insect-counter.l5d")
    ap.add_argument("--fixtures", default="internal/ailab/testdata")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()

    random.seed(SEED)
    np.random.seed(SEED)
    torch.manual_seed(SEED)
    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True)

    pics, counts, _ = load(args.train)
    tpics, tcounts, trows = load(args.test)
    print(f"train {len(counts)} pictures, test {len(tcounts)}", flush=True)

    model = Counter(len(ELEMENTS))
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, args.epochs)
    gen = torch.Generator().manual_seed(SEED)
    batch = 32
    for epoch in range(args.epochs):
        model.train()
        order = torch.randperm(len(counts), generator=gen).numpy()
        total, t0 = 0.0, time.time()
        for i in range(0, len(order), batch):
            idx = np.sort(order[i:i + batch])
            x = to_input(pics[idx])
            # Mirror augmentation: insects have no preferred side.
            if torch.rand(1, generator=gen).item() < 0.5:
                x = torch.flip(x, dims=[3])
            y = torch.from_numpy(counts[idx])
            pred = model(x)[:, 0]
            loss = torch.nn.functional.smooth_l1_loss(pred, y, beta=1.0)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        sched.step()
        print(f"epoch {epoch + 1}: loss {total / len(counts):.3f} ({time.time() - t0:.0f}s)", flush=True)

    model.eval()
    with torch.no_grad():
        pred = np.concatenate([model(to_input(tpics[i:i + 64]))[:, 0].numpy() for i in range(0, len(tcounts), 64)])
    result = report("held-out", pred, tcounts, trows)

    # Exported in float64: the Go runtime computes in float64 too, so both
    # sides agree to far better than the 1e-4 the tests ask.
    exp = Export(model).double().eval()
    with torch.no_grad():
        x = to_input(tpics[:4])
        a = model(x)[:, 0].numpy()
        b = np.array([exp(x[i:i + 1].double())[0, 0].item() for i in range(4)])
        print("conv form vs export form, largest difference:", float(np.abs(a - b).max()))

    buf = io.BytesIO()
    dummy = torch.zeros(1, 3, H, W, dtype=torch.float64)
    torch.onnx.export(exp, dummy, buf, opset_version=13, input_names=["image"], output_names=["counts"],
                      do_constant_folding=True)
    onnx_bytes = buf.getvalue()

    import onnx
    m = onnx.load_from_string(onnx_bytes)
    onnx.checker.check_model(m)
    print("operators:", sorted({n.op_type for n in m.graph.node}))

    manifest = {
        "format": 1,
        "name": "Insect counter",
        "version": "1.0.0",
        "description": "Counts the moths on a light trap's catch board (trained on simulated trap pictures).",
        "input": {"name": "image", "width": W, "height": H, "channels": 3, "layout": "NCHW",
                  "mean": MEAN, "std": STD},
        "output": {"name": "counts", "kind": "count"},
        "elements": ELEMENTS,
    }
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with zipfile.ZipFile(args.out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in (("manifest.json", json.dumps(manifest, indent=2).encode()), ("model.onnx", onnx_bytes)):
            info = zipfile.ZipInfo(name, date_time=(2024, 6, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    print(f"wrote {args.out}: {os.path.getsize(args.out)} bytes")

    # Reference pictures for the Go runtime: PNG (decoded identically
    # everywhere) and this script's counts for them.
    os.makedirs(args.fixtures, exist_ok=True)
    refs = []
    pick = [int(np.argmin(np.abs(tcounts - c))) for c in (3, 60, 150)]
    with torch.no_grad():
        for k, i in enumerate(pick):
            name = f"counter-ref-{k}.png"
            Image.fromarray(tpics[i]).save(os.path.join(args.fixtures, name), optimize=True)
            out = exp(to_input(tpics[i:i + 1]).double())[0].tolist()
            refs.append({"file": name, "trueCount": float(tcounts[i]), "counts": out})
    with open(os.path.join(args.fixtures, "counter-ref.json"), "w") as f:
        json.dump({"references": refs, "heldOut": result}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
