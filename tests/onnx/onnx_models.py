#!/usr/bin/python3
"""Small ONNX models for the importer's tests, written with Debian's
python3-onnx (onnx.helper), deterministic (seeded initializers):

    tests/onnx/onnx_models.py OUT_DIR [NAME...]     (no NAME: all of them)

Each model is a function below; tests/onnx/resnet50_onnx.py writes the
ResNet-50 of models/resnet50.pto the same way. The hostile models of
docs/errors.md are tests/onnx/hostile/ (tests/onnx/hostile_models.py)."""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

F32 = TensorProto.FLOAT
F16 = TensorProto.FLOAT16


def init(rng, name, shape, dtype=np.float32, scale=0.1):
    return numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(dtype), name)


def model(nodes, inputs, outputs, initializers, opset=13):
    g = helper.make_graph(nodes, "g", inputs, outputs, initializers)
    return helper.make_model(g, producer_name="davinci-sim tests", opset_imports=[helper.make_opsetid("", opset)])


def conv_bn_relu():
    """Conv 3x3 (bias, stride 1, pads 1) -> BatchNormalization -> Relu, float16."""
    rng = np.random.default_rng(1)
    inits = [init(rng, "conv.weight", (16, 8, 3, 3), np.float16), init(rng, "conv.bias", (16,), np.float16),
             init(rng, "bn.scale", (16,), np.float16), init(rng, "bn.bias", (16,), np.float16),
             init(rng, "bn.mean", (16,), np.float16),
             numpy_helper.from_array((rng.random(16) + 0.5).astype(np.float16), "bn.var")]
    nodes = [helper.make_node("Conv", ["x", "conv.weight", "conv.bias"], ["c"], name="conv", pads=[1, 1, 1, 1],
                              strides=[1, 1], kernel_shape=[3, 3]),
             helper.make_node("BatchNormalization", ["c", "bn.scale", "bn.bias", "bn.mean", "bn.var"], ["b"],
                              name="bn", epsilon=1e-5),
             helper.make_node("Relu", ["b"], ["y"], name="relu")]
    return model(nodes, [helper.make_tensor_value_info("x", F16, [1, 8, 32, 32])],
                 [helper.make_tensor_value_info("y", F16, [1, 16, 32, 32])], inits)


def gemm():
    """Gemm with transB=1 (PyTorch's Linear), alpha 0.5, beta 2 and a bias, float32."""
    rng = np.random.default_rng(2)
    inits = [init(rng, "fc.weight", (48, 64)), init(rng, "fc.bias", (48,))]
    nodes = [helper.make_node("Gemm", ["a", "fc.weight", "fc.bias"], ["y"], name="fc", transB=1, alpha=0.5, beta=2.0)]
    return model(nodes, [helper.make_tensor_value_info("a", F32, [32, 64])],
                 [helper.make_tensor_value_info("y", F32, [32, 48])], inits)


def mlp():
    """A two-layer perceptron with a dynamic batch: MatMul + Add, Relu, MatMul + Add, Softmax, float16."""
    rng = np.random.default_rng(3)
    inits = [init(rng, "w1", (64, 128), np.float16), init(rng, "b1", (128,), np.float16),
             init(rng, "w2", (128, 32), np.float16), init(rng, "b2", (32,), np.float16)]
    nodes = [helper.make_node("MatMul", ["x", "w1"], ["h0"], name="fc1"),
             helper.make_node("Add", ["h0", "b1"], ["h1"], name="fc1.bias"),
             helper.make_node("Relu", ["h1"], ["h"], name="act"),
             helper.make_node("MatMul", ["h", "w2"], ["o0"], name="fc2"),
             helper.make_node("Add", ["o0", "b2"], ["o1"], name="fc2.bias"),
             helper.make_node("Softmax", ["o1"], ["probs"], name="softmax", axis=-1)]
    return model(nodes, [helper.make_tensor_value_info("x", F16, ["batch", 64])],
                 [helper.make_tensor_value_info("probs", F16, ["batch", 32])], inits)


def shape_fold():
    """PyTorch's x.view(x.size(0), -1): Shape -> Gather -> Unsqueeze -> Concat -> Reshape, then a Gemm."""
    rng = np.random.default_rng(4)
    inits = [numpy_helper.from_array(np.array(0, dtype=np.int64), "zero"),
             numpy_helper.from_array(np.array([-1], dtype=np.int64), "minus_one"),
             init(rng, "fc.weight", (10, 256), np.float16)]
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu"),
             helper.make_node("Shape", ["r"], ["s"], name="shape"),
             helper.make_node("Gather", ["s", "zero"], ["n"], name="batch", axis=0),
             helper.make_node("Unsqueeze", ["n", "axes0"], ["n1"], name="unsqueeze"),
             helper.make_node("Constant", [], ["axes0"], name="axes", value=numpy_helper.from_array(
                 np.array([0], dtype=np.int64))),
             helper.make_node("Concat", ["n1", "minus_one"], ["target"], name="concat", axis=0),
             helper.make_node("Reshape", ["r", "target"], ["flat"], name="view"),
             helper.make_node("Gemm", ["flat", "fc.weight"], ["logits"], name="fc", transB=1)]
    return model(nodes, [helper.make_tensor_value_info("x", F16, ["N", 16, 4, 4])],
                 [helper.make_tensor_value_info("logits", F16, ["N", 10])], inits)


def attention():
    """One head of self-attention with a residual, float32: LayerNormalization, MatMul, Transpose, Div by a
    number, Softmax, Add."""
    rng = np.random.default_rng(5)
    inits = [init(rng, n, (32, 32)) for n in ("wq", "wk", "wv")]
    inits += [numpy_helper.from_array((1 + rng.standard_normal(32) * 0.1).astype(np.float32), "ln.g"),
              init(rng, "ln.b", (32,)), numpy_helper.from_array(np.array(np.sqrt(32), np.float32), "scale")]
    nodes = [helper.make_node("LayerNormalization", ["x", "ln.g", "ln.b"], ["h"], name="ln", axis=-1, epsilon=1e-5),
             helper.make_node("MatMul", ["h", "wq"], ["q"], name="q"),
             helper.make_node("MatMul", ["h", "wk"], ["k"], name="k"),
             helper.make_node("MatMul", ["h", "wv"], ["v"], name="v"),
             helper.make_node("Transpose", ["k"], ["kt"], name="kt", perm=[1, 0]),
             helper.make_node("MatMul", ["q", "kt"], ["s0"], name="scores"),
             helper.make_node("Div", ["s0", "scale"], ["s"], name="scaled"),
             helper.make_node("Softmax", ["s"], ["p"], name="softmax", axis=-1),
             helper.make_node("MatMul", ["p", "v"], ["a"], name="attend"),
             helper.make_node("Add", ["a", "x"], ["y"], name="residual")]
    return model(nodes, [helper.make_tensor_value_info("x", F32, [16, 32])],
                 [helper.make_tensor_value_info("y", F32, [16, 32])], inits, opset=17)


def attention_reference(m, x):
    p = {i.name: numpy_helper.to_array(i).astype(np.float64) for i in m.graph.initializer}
    x = x.astype(np.float64)
    h = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5) * p["ln.g"] + p["ln.b"]
    q, k, v = h @ p["wq"], h @ p["wk"], h @ p["wv"]
    s = q @ k.T / p["scale"]
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True) @ v + x


def data_movement():
    """Slice, Concat, Gather (a view and token ids), Unsqueeze, Squeeze, Clip, Sub, Pow, Sqrt, ReduceMean,
    Sigmoid, Tanh, Cast and Identity, float32."""
    rng = np.random.default_rng(6)
    inits = [init(rng, "table", (50, 16)), ints("starts", [1]), ints("ends", [3]), ints("axes", [0]),
             ints("one", 1), ints("ax0", [0]), numpy_helper.from_array(np.array(2.0, np.float32), "two"),
             numpy_helper.from_array(np.array(0.5, np.float32), "half")]
    nodes = [helper.make_node("Slice", ["x", "starts", "ends", "axes"], ["xs"], name="slice"),  # (2, 16)
             helper.make_node("Gather", ["x", "one"], ["row"], name="row", axis=0),  # (16,)
             helper.make_node("Unsqueeze", ["row", "ax0"], ["row2"], name="unsqueeze"),  # (1, 16)
             helper.make_node("Concat", ["x", "row2"], ["xc"], name="concat", axis=0),  # (5, 16)
             helper.make_node("Clip", ["xc", "", "half"], ["xcl"], name="clip"),
             helper.make_node("Sub", ["xcl", "two"], ["d"], name="sub"),
             helper.make_node("Pow", ["d", "two"], ["d2"], name="square"),
             helper.make_node("ReduceMean", ["d2"], ["m"], name="mean", axes=[1], keepdims=1),  # (5, 1)
             helper.make_node("Sqrt", ["m"], ["r"], name="sqrt"),
             helper.make_node("Squeeze", ["r", "one1"], ["rs"], name="squeeze"),  # (5,)
             helper.make_node("Constant", [], ["one1"], name="c1", value=ints("c", [1])),
             helper.make_node("Sigmoid", ["xs"], ["sg"], name="sigmoid"),
             helper.make_node("Tanh", ["sg"], ["th"], name="tanh"),
             helper.make_node("Cast", ["th"], ["thc"], name="cast", to=F32),
             helper.make_node("Identity", ["thc"], ["y1"], name="identity"),
             helper.make_node("Gather", ["table", "ids"], ["emb"], name="embedding", axis=0),  # (2, 3, 16)
             helper.make_node("Relu", ["emb"], ["y3"], name="relu")]
    return model(nodes, [helper.make_tensor_value_info("x", F32, [4, 16]),
                         helper.make_tensor_value_info("ids", TensorProto.INT64, [2, 3])],
                 [helper.make_tensor_value_info(n, F32, None) for n in ("y1", "rs", "y3")], inits)


def data_movement_reference(m, x, ids):
    p = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    x = x.astype(np.float64)
    xc = np.minimum(np.concatenate([x, x[1:2]], axis=0), 0.5)
    rs = np.sqrt(((xc - 2) ** 2).mean(1))
    y1 = np.tanh(1 / (1 + np.exp(-x[1:3])))
    return y1, rs, np.maximum(p["table"].astype(np.float64)[ids], 0)


def feed_forward():
    """A transformer's feed-forward block with GELU as PyTorch exports nn.GELU() at opsets below 20:
    Div by sqrt(2), Erf, Add 1, Mul by x, Mul by 0.5 (onnx_gelu.h), float16."""
    rng = np.random.default_rng(11)
    inits = [init(rng, "w1", (64, 256), np.float16), init(rng, "w2", (256, 64), np.float16),
             numpy_helper.from_array(np.array(1.4142135381698608, np.float16), "sqrt2"),
             numpy_helper.from_array(np.array(1.0, np.float16), "one"),
             numpy_helper.from_array(np.array(0.5, np.float16), "half")]
    nodes = [helper.make_node("MatMul", ["x", "w1"], ["h"], name="fc1"),
             helper.make_node("Div", ["h", "sqrt2"], ["d"], name="gelu.div"),
             helper.make_node("Erf", ["d"], ["e"], name="gelu.erf"),
             helper.make_node("Add", ["e", "one"], ["a"], name="gelu.add"),
             helper.make_node("Mul", ["h", "a"], ["m"], name="gelu.mul"),
             helper.make_node("Mul", ["m", "half"], ["g"], name="gelu.half"),
             helper.make_node("MatMul", ["g", "w2"], ["y"], name="fc2")]
    return model(nodes, [helper.make_tensor_value_info("x", F16, [32, 64])],
                 [helper.make_tensor_value_info("y", F16, [32, 64])], inits)


def upsample_pytorch():
    """Resize as torch.onnx.export (opset 11) writes F.interpolate: mode nearest with
    scale_factor=2 (coordinate_transformation_mode asymmetric, nearest_mode floor, an empty roi,
    constant scales), then bilinear with size=(H * 3, W * 3) and align_corners=False (pytorch_half_pixel,
    sizes computed from Shape), on a batch the model leaves open."""
    empty = numpy_helper.from_array(np.zeros(0, np.float32), "roi")
    scales = numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales")
    hw = numpy_helper.from_array(np.array([30, 42], np.int64), "hw")
    nodes = [helper.make_node("Resize", ["x", "roi", "scales"], ["up"], name="up.nearest", mode="nearest",
                              coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
             helper.make_node("Shape", ["up"], ["s"], name="shape"),
             helper.make_node("Slice", ["s", "zero", "two"], ["nc"], name="slice"),
             helper.make_node("Concat", ["nc", "hw"], ["sizes"], name="concat", axis=0),
             helper.make_node("Resize", ["up", "roi", "roi", "sizes"], ["y"], name="up.bilinear", mode="linear",
                              coordinate_transformation_mode="pytorch_half_pixel")]
    return model(nodes, [helper.make_tensor_value_info("x", F32, ["N", 3, 5, 7])],
                 [helper.make_tensor_value_info("y", F32, None)],
                 [empty, scales, hw, ints("zero", [0]), ints("two", [2])], opset=11)


def resize_reference(x, fh, fw, mode="nearest", transform="half_pixel", rounding="round_prefer_floor"):
    """ONNX Resize (opsets 11 to 17) of an (N, C, H, W) array by integer factors of H and W, from the
    operator's definition, in float64: output index o of an axis scaled by f from n to n * f reads the
    input at coordinate x = (o + 0.5) / f - 0.5 (half_pixel; pytorch_half_pixel: the same, or 0 when
    n * f is 1), o / f (asymmetric) or (o + 0.5) / f (tf_half_pixel_for_nn); nearest takes index
    floor(x), ceil(x), ceil(x - 0.5) (round_prefer_floor) or floor(x + 0.5) (round_prefer_ceil),
    linear blends floor(x) and floor(x) + 1 by x - floor(x); indices outside the input are clamped to
    its edge."""
    def coordinate(o, f, n):
        if transform == "asymmetric":
            return o / f
        if transform == "tf_half_pixel_for_nn":
            return (o + 0.5) / f
        if transform == "pytorch_half_pixel" and n * f == 1:
            return 0.0
        return (o + 0.5) / f - 0.5

    def axis(a, f):
        n = a.shape[0]
        out = np.empty((n * f,) + a.shape[1:])
        for o in range(n * f):
            c = coordinate(o, f, n)
            if mode == "nearest":
                i = {"floor": np.floor(c), "ceil": np.ceil(c), "round_prefer_floor": np.ceil(c - 0.5),
                     "round_prefer_ceil": np.floor(c + 0.5)}[rounding]
                out[o] = a[min(max(int(i), 0), n - 1)]
            else:
                i = int(np.floor(c))
                out[o] = (1 - (c - i)) * a[min(max(i, 0), n - 1)] + (c - i) * a[min(max(i + 1, 0), n - 1)]
        return out

    y = np.stack([np.stack([axis(plane, fh) for plane in image]) for image in x.astype(np.float64)])
    return np.stack([np.stack([axis(plane.T, fw).T for plane in image]) for image in y])


def shared_constants():
    """Constants shared between nodes that fold them (issue 22): BatchNormalizations bn1 and bn2 with
    the same scale, B, mean, var and epsilon (one fold), bn3 with the same scale and B but its own
    mean and epsilon (a second fold of scale and B); Gemms g1 and g2 sharing C with beta 2 (one
    C * beta), g3 with beta 0.5 and B transposed (W, already a weight, transposed by the program).
    float32."""
    rng = np.random.default_rng(15)
    inits = [init(rng, n, (4,), scale=1.0) for n in ("s", "b", "m1", "m2")]
    inits += [numpy_helper.from_array((rng.random(4) + 0.5).astype(np.float32), "v"),
              init(rng, "W", (8, 8), scale=0.5), init(rng, "C", (8,), scale=1.0)]
    nodes = [helper.make_node("BatchNormalization", ["x", "s", "b", "m1", "v"], ["y1"], name="bn1"),
             helper.make_node("BatchNormalization", ["x", "s", "b", "m1", "v"], ["y2"], name="bn2"),
             helper.make_node("BatchNormalization", ["x", "s", "b", "m2", "v"], ["y3"], name="bn3", epsilon=1e-3),
             helper.make_node("Gemm", ["a", "W", "C"], ["g1"], name="g1", beta=2.0),
             helper.make_node("Gemm", ["a", "W", "C"], ["g2"], name="g2", beta=2.0),
             helper.make_node("Gemm", ["a", "W", "C"], ["g3"], name="g3", beta=0.5, transB=1)]
    outs = [helper.make_tensor_value_info(n, F32, None) for n in ("y1", "y2", "y3", "g1", "g2", "g3")]
    return model(nodes, [helper.make_tensor_value_info("x", F32, [1, 4, 3, 3]),
                         helper.make_tensor_value_info("a", F32, [2, 8])], outs, inits)


def shared_constants_reference(m, x, a):
    """shared_constants' outputs in float64, from ONNX's definitions."""
    p = {i.name: numpy_helper.to_array(i).astype(np.float64) for i in m.graph.initializer}

    def bn(mean, eps):
        c = (slice(None), None, None)
        return (x - p[mean][c]) / np.sqrt(p["v"][c] + eps) * p["s"][c] + p["b"][c]

    return (bn("m1", 1e-5), bn("m1", 1e-5), bn("m2", 1e-3), a @ p["W"] + 2 * p["C"], a @ p["W"] + 2 * p["C"],
            a @ p["W"].T + 0.5 * p["C"])


def ints(name, values):
    return numpy_helper.from_array(np.array(values, dtype=np.int64), name)


MODELS = {f.__name__: f for f in (conv_bn_relu, gemm, mlp, shape_fold, attention, data_movement, feed_forward,
                                   upsample_pytorch, shared_constants)}


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    for name in argv[2:] or sorted(MODELS):
        save(MODELS[name](), os.path.join(out, name + ".onnx"))


if __name__ == "__main__":
    main(sys.argv)
