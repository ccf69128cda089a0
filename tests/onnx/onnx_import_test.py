#!/usr/bin/python3
"""End-to-end tests of the ONNX importer (ctest onnx_import_*):

    tests/onnx/onnx_import_test.py DAVINCI_SIM WORK_DIR CASE

CASE is one of the functions named test_* below. Models are written at test
time by tests/onnx/onnx_models.py and tests/onnx/resnet50_onnx.py with
Debian's python3-onnx, so the repository holds no weights."""
import json
import math
import os
import re
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


def test_resize_values_are_onnx():
    """Resize (issue 22): the forms whose values are the language's upsample are mapped onto it, and the
    others refused. The NumPy reference (onnx_models.resize_reference, from the operator's definition)
    is first checked against ONNX's own expected outputs; then PyTorch's export of F.interpolate
    (nearest by 2, bilinear by 3 via sizes computed from Shape, an open batch) against it; then every
    nearest_mode and coordinate_transformation_mode at factors 1 to 3: imported, with the reference's
    values exactly, when the reference reads input row o / f for every output row o, else refused."""
    data = os.environ.get("ONNX_NODE_TEST_DATA", "/usr/share/libonnx-testdata/data/node")
    for name, f, args in (("upsample_scales_nearest", (2, 3), ()), ("upsample_scales_linear", (2, 2), ("linear",)),
                          ("upsample_sizes_nearest_ceil_half_pixel", (2, 2), ("nearest", "half_pixel", "ceil")),
                          ("upsample_sizes_nearest_round_prefer_ceil_asymmetric", (2, 2),
                           ("nearest", "asymmetric", "round_prefer_ceil"))):
        d = os.path.join(data, "test_resize_" + name, "test_data_set_0")
        x, want = (onnx_models.numpy_helper.to_array(onnx_models.TensorProto.FromString(open(os.path.join(d, p), "rb").read()))
                   for p in ("input_0.pb", "output_0.pb"))
        err = np.max(np.abs(onnx_models.resize_reference(x, *f, *args) - want))
        if err > 1e-6:
            sys.exit("resize_reference differs from ONNX's test_resize_%s by %g" % (name, err))

    pto = "upsample_pytorch.pto"
    run("--shape", "x=2,3,5,7", "--emit-pto", pto, model("upsample_pytorch"))
    for line in ("up = pypo.op.upsample(x, factor=(2, 2))  # node 'up.nearest' (Resize)\n",
                 "y = pypo.op.upsample(up, factor=(3, 3), mode=\"bilinear\")  # node 'up.bilinear' (Resize)\n"):
        if line not in emitted(pto):
            sys.exit("upsample_pytorch: no line %r in:\n%s" % (line, emitted(pto)))
    x = np.random.default_rng(13).standard_normal((2, 3, 5, 7)).astype(np.float32)
    np.save(os.path.join(WORK, "x.npy"), x)
    (y,) = outputs_of(["upsample_pytorch.onnx", "--shape", "x=2,3,5,7", "--input", "x=x.npy"], ["y"])
    want = onnx_models.resize_reference(onnx_models.resize_reference(x, 2, 2, "nearest", "asymmetric", "floor"), 3, 3,
                                        "linear", "pytorch_half_pixel")
    err = np.max(np.abs(y - want)) / np.max(np.abs(want))
    if y.shape != want.shape or err > 1e-6:
        sys.exit("upsample_pytorch: shape %s, relative error %g against NumPy" % (y.shape, err))

    h = onnx_models.helper
    x = np.random.default_rng(14).standard_normal((1, 2, 3, 4)).astype(np.float32)
    np.save(os.path.join(WORK, "x.npy"), x)
    mapped = []
    for mode, roundings in (("nearest", ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")),
                            ("linear", ("round_prefer_floor",))):
        for transform in ("half_pixel", "pytorch_half_pixel", "asymmetric", "tf_half_pixel_for_nn"):
            for rounding in roundings:
                for f in (1, 2, 3):
                    name = "resize_%s_%s_%s_%d" % (mode, transform, rounding, f)
                    node = h.make_node("Resize", ["x", "", "scales"], ["y"], name="r", mode=mode,
                                       coordinate_transformation_mode=transform, nearest_mode=rounding)
                    g = h.make_graph([node], "g", [h.make_tensor_value_info("x", onnx_models.F32, [1, 2, 3, 4])],
                                     [h.make_tensor_value_info("y", onnx_models.F32, None)],
                                     [onnx_models.numpy_helper.from_array(np.float32([1, 1, f, f]), "scales")])
                    onnx_models.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]),
                                     os.path.join(WORK, name + ".onnx"))
                    want = onnx_models.resize_reference(x, f, f, mode, transform, rounding)
                    if mode == "nearest":  # the language's nearest upsample: input row o / f
                        exact = np.array_equal(want, x.repeat(f, 2).repeat(f, 3))
                    else:  # its bilinear one: ONNX's half_pixel, whatever the factor (docs/language.md)
                        exact = transform in ("half_pixel", "pytorch_half_pixel")
                    if not exact:
                        p = run("--emit-pto", name + ".pto", name + ".onnx", status=2)
                        if len(p.stderr.strip().splitlines()) != 1 or "node 'r' (Resize): " not in p.stderr:
                            sys.exit(name + ": not one message naming the node: " + p.stderr)
                        continue
                    mapped.append(name)
                    (y,) = outputs_of([name + ".onnx", "--input", "x=x.npy"], ["y"])
                    tol = 0 if mode == "nearest" else 1e-6 * np.max(np.abs(want))
                    if y.shape != want.shape or np.max(np.abs(y - want)) > tol:
                        sys.exit("%s: differs from the reference:\n%s\n%s" % (name, y, want))
    # The reference's verdicts, counted: nearest at factors 2 and 3 with half_pixel or
    # pytorch_half_pixel and round_prefer_floor or round_prefer_ceil (8), asymmetric with floor (PyTorch's
    # export) or, at factor 2, round_prefer_floor (3), tf_half_pixel_for_nn with floor (2); at factor 1
    # the 14 forms that are the identity (all but tf_half_pixel_for_nn with ceil or round_prefer_ceil);
    # bilinear with half_pixel or pytorch_half_pixel at factors 1 to 3 (6).
    expect("mapped Resize forms", len(mapped), 33)


def test_shared_constants_fold_once_each():
    """Constants shared by nodes that fold them (issue 22): the same fold is one weight, another fold
    of a shared constant a weight of its own under the next free name (.2), the names the same on every
    import; the values those of ONNX's definitions."""
    pto = "shared_constants.pto"
    run("--emit-pto", pto, model("shared_constants"))
    text = emitted(pto)
    weights = re.findall(r'= pypo\.weight\("([^"]*)"', text)
    expect("shared_constants weights", weights, ["s.folded", "b.folded", "s.folded.2", "b.folded.2", "W", "C.scaled",
                                                 "C.scaled.2"])
    for line in ("y1 = pypo.op.batch_norm(x, s_folded, b_folded)", "y2 = pypo.op.batch_norm(x, s_folded, b_folded)",
                 "y3 = pypo.op.batch_norm(x, s_folded_2, b_folded_2)",
                 "g1 = pypo.op.add(pypo.op.matmul(a, W), C_scaled)", "g2 = pypo.op.add(pypo.op.matmul(a, W), C_scaled)",
                 "g3 = pypo.op.add(pypo.op.matmul(a, pypo.op.transpose(W, (1, 0))), C_scaled_2)"):
        if "\n" + line + "  # node " not in text:
            sys.exit("shared_constants: no line %r in:\n%s" % (line, text))
    run("--emit-pto", "again.pto", "shared_constants.onnx")
    expect("the program of a second import", emitted("again.pto"), text)
    rng = np.random.default_rng(16)
    x, a = rng.standard_normal((1, 4, 3, 3)).astype(np.float32), rng.standard_normal((2, 8)).astype(np.float32)
    np.save(os.path.join(WORK, "x.npy"), x)
    np.save(os.path.join(WORK, "a.npy"), a)
    names = ["y1", "y2", "y3", "g1", "g2", "g3"]
    got = outputs_of(["shared_constants.onnx", "--input", "x=x.npy", "--input", "a=a.npy"], names)
    want = onnx_models.shared_constants_reference(onnx_models.shared_constants(), x.astype(np.float64),
                                                  a.astype(np.float64))
    for name, y, w in zip(names, got, want):
        err = np.max(np.abs(y - w)) / np.max(np.abs(w))
        if y.shape != w.shape or err > 1e-5:
            sys.exit("shared_constants: %s: shape %s, relative error %g against NumPy" % (name, y.shape, err))


def test_batch_norm_statistics_as_inputs():
    """A BatchNormalization whose scale, B, mean and var are graph inputs (issue 22): the fold the
    importer makes of constants, computed by the program; against ONNX's definition in float64."""
    h = onnx_models.helper
    node = h.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"], name="bn", epsilon=1e-3)
    ins = [h.make_tensor_value_info("x", onnx_models.F32, [2, 3, 4, 5])]
    ins += [h.make_tensor_value_info(n, onnx_models.F32, [3]) for n in "sbmv"]
    g = h.make_graph([node], "g", ins, [h.make_tensor_value_info("y", onnx_models.F32, None)])
    onnx_models.save(h.make_model(g, opset_imports=[h.make_opsetid("", 15)]), os.path.join(WORK, "bn_inputs.onnx"))
    run("--emit-pto", "bn_inputs.pto", "bn_inputs.onnx")
    for line in ("y_scale = pypo.op.div(s, pypo.op.sqrt(pypo.op.add(v, 0.001)))  # node 'bn' (BatchNormalization)",
                 "y_shift = pypo.op.sub(b, pypo.op.mul(m, y_scale))  # node 'bn' (BatchNormalization)",
                 "y = pypo.op.batch_norm(x, y_scale, y_shift)  # node 'bn' (BatchNormalization)\n"):
        if "\n" + line not in emitted("bn_inputs.pto"):
            sys.exit("bn_inputs: no line %r in:\n%s" % (line, emitted("bn_inputs.pto")))
    rng = np.random.default_rng(17)
    vals = {"x": rng.standard_normal((2, 3, 4, 5)), "s": rng.standard_normal(3), "b": rng.standard_normal(3),
            "m": rng.standard_normal(3), "v": rng.random(3) + 0.5}
    args = ["bn_inputs.onnx"]
    for k, a in vals.items():
        vals[k] = a.astype(np.float32)
        np.save(os.path.join(WORK, k + ".npy"), vals[k])
        args += ["--input", "%s=%s.npy" % (k, k)]
    (y,) = outputs_of(args, ["y"])
    c = (slice(None), None, None)
    p = {k: a.astype(np.float64) for k, a in vals.items()}
    want = (p["x"] - p["m"][c]) / np.sqrt(p["v"][c] + 1e-3) * p["s"][c] + p["b"][c]
    err = np.max(np.abs(y - want)) / np.max(np.abs(want))
    if y.shape != want.shape or err > 1e-5:
        sys.exit("bn_inputs: shape %s, relative error %g against NumPy" % (y.shape, err))


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
