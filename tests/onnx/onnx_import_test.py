#!/usr/bin/python3
"""End-to-end tests of the ONNX importer (ctest onnx_import_*):

    tests/onnx/onnx_import_test.py DAVINCI_SIM WORK_DIR CASE

CASE is one of the functions named test_* below. Models are written at test
time by tests/onnx/onnx_models.py and tests/onnx/resnet50_onnx.py with
Debian's python3-onnx, so the repository holds no weights."""
import json
import math
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import onnx_models  # noqa: E402

SIM, WORK = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
ENV = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")


def run(*args, status=0):
    p = subprocess.run([SIM, *args], cwd=WORK, env=ENV, capture_output=True, text=True)
    if p.returncode != status:
        sys.exit("davinci-sim %s: exit %d (wanted %d)\n%s%s" % (" ".join(args), p.returncode, status, p.stdout,
                                                                  p.stderr))
    return p


def model(name):
    onnx_models.save(onnx_models.MODELS[name](), os.path.join(WORK, name + ".onnx"))
    return name + ".onnx"


def report(*args):
    out = "report_%d.json" % len(os.listdir(WORK))
    run(*args, "-q", "--report-json", out)
    with open(os.path.join(WORK, out)) as f:
        return json.load(f)


def expect(what, got, want):
    if got != want:
        sys.exit("%s: got %r, want %r" % (what, got, want))


def same_run(onnx, shapes, cycles):
    """The model and the program --emit-pto writes for it simulate alike, in `cycles`."""
    pto = onnx.replace(".onnx", ".pto")
    run(*shapes, "--emit-pto", pto, onnx)
    a, b = report(*shapes, onnx), report(*shapes, pto)
    for key in ("total_cycles", "macs", "ddr_bytes_read", "ddr_bytes_written", "blocks"):
        expect(onnx + " vs " + pto + ": " + key, a[key], b[key])
    expect(onnx + ": total_cycles", a["total_cycles"], cycles)
    return pto


def emitted(pto):
    with open(os.path.join(WORK, pto)) as f:
        return f.read()


def test_conv_bn_relu():
    pto = same_run(model("conv_bn_relu"), [], 6310)
    expect("emitted program", emitted(pto), """\
# Imported from conv_bn_relu.onnx by davinci-sim (ONNX opset 13, producer davinci-sim tests).
# Inputs, weights and outputs keep the model's tensor names; weights take the model's values under --functional.
import pypto as pypo

x = pypo.input("x", shape=(1, 8, 32, 32), dtype="float16")
conv_weight = pypo.weight("conv.weight", shape=(16, 8, 3, 3), dtype="float16")
conv_bias = pypo.weight("conv.bias", shape=(16,), dtype="float16")
bn_scale_folded = pypo.weight("bn.scale.folded", shape=(16,), dtype="float16")
bn_bias_folded = pypo.weight("bn.bias.folded", shape=(16,), dtype="float16")

c = pypo.op.conv2d(x, conv_weight, padding=(1, 1), bias=conv_bias)  # node 'conv' (Conv)
b = pypo.op.batch_norm(c, bn_scale_folded, bn_bias_folded)  # node 'bn' (BatchNormalization)
y = pypo.op.relu(b)  # node 'relu' (Relu)
pypo.output("y", y)
""")


def test_gemm():
    same_run(model("gemm"), [], 1915)


def test_mlp_dynamic_batch():
    same_run(model("mlp"), ["--shape", "x=8,64"], 2086)
    # The batch is the model's "batch" dim, None in the program: any binding works.
    expect("batch 64", report("--shape", "x=64,64", "mlp.onnx")["total_cycles"], 5935)


def test_shape_arithmetic_folded():
    pto = same_run(model("shape_fold"), ["--shape", "x=2,16,4,4"], 867)
    # Shape -> Gather -> Unsqueeze -> Concat -> Reshape, folded into one reshape
    # that keeps the batch open.
    if "flat = pypo.op.reshape(r, (r.shape[0], -1))  # node 'view' (Reshape)\n" not in emitted(pto):
        sys.exit("shape_fold: the folded reshape is missing:\n" + emitted(pto))


def outputs_of(args, names):
    out = os.path.join(WORK, "out_" + names[0])
    run(*args, "-q", "--functional", "--outputs", out)
    return [np.load(os.path.join(out, n + ".npy")) for n in names]


def test_gemm_values_are_the_models():
    """--functional computes with the model's initializers: 0.5 * a @ W^T + 2 * b."""
    m = onnx_models.gemm()
    w = onnx_models.numpy_helper.to_array(m.graph.initializer[0])
    b = onnx_models.numpy_helper.to_array(m.graph.initializer[1])
    a = np.random.default_rng(7).standard_normal((32, 64)).astype(np.float32)
    np.save(os.path.join(WORK, "a.npy"), a)
    (y,) = outputs_of([model("gemm"), "--input", "a=a.npy"], ["y"])
    want = 0.5 * (a.astype(np.float64) @ w.T.astype(np.float64)) + 2 * b
    err = np.max(np.abs(y - want))
    if err > 1e-4:
        sys.exit("gemm: max abs error %g against NumPy" % err)


def test_conv_bn_relu_values_are_the_models():
    """Conv + inference BatchNormalization + Relu against NumPy in float64, float16 tolerance."""
    m = onnx_models.conv_bn_relu()
    p = {i.name: onnx_models.numpy_helper.to_array(i).astype(np.float64) for i in m.graph.initializer}
    x = np.random.default_rng(8).standard_normal((1, 8, 32, 32)).astype(np.float16)
    np.save(os.path.join(WORK, "x.npy"), x)
    (y,) = outputs_of([model("conv_bn_relu"), "--input", "x=x.npy"], ["y"])
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    w = p["conv.weight"]
    c = np.zeros((1, 16, 32, 32))
    for i in range(3):
        for j in range(3):
            c += np.einsum("nchw,oc->nohw", xp[:, :, i:i + 32, j:j + 32], w[:, :, i, j])
    c += p["conv.bias"][None, :, None, None]
    s = p["bn.scale"] / np.sqrt(p["bn.var"] + 1e-5)
    want = np.maximum((c - p["bn.mean"][None, :, None, None]) * s[None, :, None, None] +
                      p["bn.bias"][None, :, None, None], 0)
    err = np.max(np.abs(y.astype(np.float64) - want) / (np.abs(want) + 1))
    if err > 0.02:
        sys.exit("conv_bn_relu: max relative error %g against NumPy" % err)


def test_attention_values_are_the_models():
    """LayerNormalization, MatMul, Transpose, Div, Softmax, Add against NumPy in float64."""
    x = np.random.default_rng(9).standard_normal((16, 32)).astype(np.float32)
    np.save(os.path.join(WORK, "x.npy"), x)
    (y,) = outputs_of([model("attention"), "--input", "x=x.npy"], ["y"])
    err = np.max(np.abs(y - onnx_models.attention_reference(onnx_models.attention(), x)))
    if err > 1e-4:
        sys.exit("attention: max abs error %g against NumPy" % err)


def test_data_movement_values_are_the_models():
    """Slice, Gather, Unsqueeze, Concat, Clip, Sub, Pow, ReduceMean, Sqrt, Squeeze, Sigmoid, Tanh, Cast,
    Identity against NumPy (the embedding's ids are random under --functional: its rows are --check's)."""
    x = np.random.default_rng(10).standard_normal((4, 16)).astype(np.float32)
    np.save(os.path.join(WORK, "x.npy"), x)
    y1, rs = outputs_of([model("data_movement"), "--input", "x=x.npy"], ["y1", "rs"])
    want_y1, want_rs, _ = onnx_models.data_movement_reference(onnx_models.data_movement(), x, np.zeros((2, 3), int))
    err = max(np.max(np.abs(y1 - want_y1)), np.max(np.abs(rs - want_rs)))
    if err > 1e-4:
        sys.exit("data_movement: max abs error %g against NumPy" % err)


def test_gelu_subgraph_is_one_gelu():
    """PyTorch's exported GELU (Div, Erf, Add, Mul, Mul) becomes pypo.op.gelu, which computes the same
    function: against NumPy's erf in float64, float16 tolerance."""
    pto = same_run(model("feed_forward"), [], 6745)
    line = ("g = pypo.op.gelu(h)  # node 'gelu.half' (Mul): the GELU x * 0.5 * (1 + Erf(x / sqrt(2))) of "
            "x = 'h'\n")
    if line not in emitted(pto) or "pypo.op.div" in emitted(pto):
        sys.exit("feed_forward: the GELU is not one operation:\n" + emitted(pto))
    m = onnx_models.feed_forward()
    p = {i.name: onnx_models.numpy_helper.to_array(i).astype(np.float64) for i in m.graph.initializer}
    x = np.random.default_rng(12).standard_normal((32, 64)).astype(np.float16)
    np.save(os.path.join(WORK, "x.npy"), x)
    (y,) = outputs_of(["feed_forward.onnx", "--input", "x=x.npy"], ["y"])
    h = x.astype(np.float64) @ p["w1"]
    erf = np.vectorize(math.erf)
    want = (0.5 * h * (1 + erf(h / math.sqrt(2)))) @ p["w2"]
    err = np.max(np.abs(y.astype(np.float64) - want) / (np.abs(want) + 1))
    if err > 0.02:
        sys.exit("feed_forward: max relative error %g against NumPy" % err)


def test_check_passes():
    for name, shapes in (("conv_bn_relu", []), ("gemm", []), ("mlp", ["--shape", "x=8,64"]),
                         ("shape_fold", ["--shape", "x=2,16,4,4"]), ("attention", []), ("data_movement", []),
                         ("feed_forward", [])):
        run(model(name), *shapes, "-q", "--check")


def test_resnet50_matches_models_resnet50():
    """Part 3 of issue 22: ResNet-50 written as ONNX (tests/onnx/resnet50_onnx.py)
    is the network of models/resnet50.pto: the same MACs, DDR bytes and cycles."""
    onnx = os.path.join(WORK, "resnet50.onnx")
    subprocess.run(["/usr/bin/python3", os.path.join(HERE, "resnet50_onnx.py"), onnx], check=True)
    shape = ["--shape", "input=1,3,224,224"]
    a = report(*shape, "resnet50.onnx")
    b = report(*shape, os.path.join(ROOT, "models", "resnet50.pto"))
    for key in ("total_cycles", "macs", "ddr_bytes_read", "ddr_bytes_written", "blocks", "compute_bound_cycles",
                "format_conversions", "fusion_groups"):
        expect("resnet50.onnx vs models/resnet50.pto: " + key, a[key], b[key])
    expect("ResNet-50 MACs at 224 x 224", a["macs"], 4089184256)


def test_mobilenet_v2_against_models_mobilenet_v2():
    """MobileNet-v2 exported as PyTorch does (tests/onnx/mobilenetv2_onnx.py) is the network of
    models/mobilenet_v2.pto, but NCHW where the program is NHWC: the same MACs and the same bytes written,
    while each cube convolution's NHWC result is converted to NCHW (35 format conversions) and the
    depthwise convolutions read NCHW planes (docs/onnx.md, "MobileNet-v2")."""
    subprocess.run(["/usr/bin/python3", os.path.join(HERE, "mobilenetv2_onnx.py"), os.path.join(WORK, "mbv2.onnx")],
                   check=True)
    a = report("--shape", "image=1,3,224,224", "mbv2.onnx")
    same_run("mbv2.onnx", ["--shape", "image=1,3,224,224"], 2225114)
    b = report("--shape", "image=1,224,224,3", os.path.join(ROOT, "models", "mobilenet_v2.pto"))
    for key in ("macs", "ddr_bytes_written", "blocks", "compute_bound_cycles"):
        expect("mbv2.onnx vs models/mobilenet_v2.pto: " + key, a[key], b[key])
    expect("format conversions", (a["format_conversions"], b["format_conversions"]), (35, 0))
    expect("DDR bytes read", (a["ddr_bytes_read"], b["ddr_bytes_read"]), (37345808, 43458320))
    expect("cycles", (a["total_cycles"], b["total_cycles"]), (2225114, 2286858))


if __name__ == "__main__":
    os.makedirs(WORK, exist_ok=True)
    globals()["test_" + sys.argv[3]]()
