#!/usr/bin/python3
"""MobileNet-v2 (width 1.0, 224 x 224) as an ONNX graph, as PyTorch exports
torchvision's in eval mode (the exporter folds each BatchNormalization into
its Conv's weights and bias; ReLU6 is Clip(0, 6); depthwise convolutions
are Conv with group = channels; the classifier a Gemm with transB=1 and a
bias), float16, random initializers, dynamic batch "N", NCHW as ONNX is:

    tests/onnx/mobilenetv2_onnx.py OUT.onnx

The network of models/mobilenet_v2.pto, which is written NHWC."""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

rng = np.random.default_rng(2)
nodes, inits = [], []


def weight(name, shape):
    inits.append(numpy_helper.from_array((rng.standard_normal(shape) * 0.05).astype(np.float16), name))
    return name


def const(name, value):
    inits.append(numpy_helper.from_array(np.array(value, np.float16), name))
    return name


LO, HI = const("relu6.lo", 0.0), const("relu6.hi", 6.0)


def conv(x, name, cin, cout, k, stride=1, groups=1, relu6=True):
    w, b = weight(name + ".weight", (cout, cin // groups, k, k)), weight(name + ".bias", (cout,))
    p = k // 2
    nodes.append(helper.make_node("Conv", [x, w, b], [name], name=name, kernel_shape=[k, k], strides=[stride, stride],
                                  pads=[p, p, p, p], group=groups))
    if not relu6:
        return name
    nodes.append(helper.make_node("Clip", [name, LO, HI], [name + ".relu6"], name=name + ".relu6"))
    return name + ".relu6"


def bottleneck(x, name, cin, t, c, stride):
    hidden = cin * t
    y = x if t == 1 else conv(x, name + ".expand", cin, hidden, 1)
    y = conv(y, name + ".depthwise", hidden, hidden, 3, stride, groups=hidden)
    y = conv(y, name + ".project", hidden, c, 1, relu6=False)
    if stride == 1 and cin == c:
        nodes.append(helper.make_node("Add", [y, x], [name + ".add"], name=name + ".add"))
        y = name + ".add"
    return y


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    x, ch, block = conv("image", "features.0", 3, 32, 3, 2), 32, 1
    for t, c, n, s in [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2),
                       (6, 320, 1, 1)]:
        for i in range(n):
            x, ch = bottleneck(x, "features.%d" % block, ch, t, c, s if i == 0 else 1), c
            block += 1
    x = conv(x, "features.18", ch, 1280, 1)
    nodes.append(helper.make_node("GlobalAveragePool", [x], ["pool"], name="pool"))
    nodes.append(helper.make_node("Flatten", ["pool"], ["flat"], name="flatten", axis=1))
    nodes.append(helper.make_node("Gemm", ["flat", weight("classifier.weight", (1000, 1280)),
                                           weight("classifier.bias", (1000,))], ["logits"], name="classifier",
                                  transB=1))
    g = helper.make_graph(nodes, "mobilenet_v2",
                          [helper.make_tensor_value_info("image", TensorProto.FLOAT16, ["N", 3, 224, 224])],
                          [helper.make_tensor_value_info("logits", TensorProto.FLOAT16, ["N", 1000])], inits)
    save(helper.make_model(g, producer_name="davinci-sim tests", opset_imports=[helper.make_opsetid("", 13)]), argv[1])


if __name__ == "__main__":
    main(sys.argv)
