#!/usr/bin/python3
"""ResNet-50 as an ONNX graph, written with onnx.helper the way PyTorch's
exporter lays out torchvision's resnet50 (Conv without bias, then
BatchNormalization, Relu; MaxPool; Add of the shortcut; GlobalAveragePool,
Flatten, Gemm with transB=1), with random initializers, float16 and a
dynamic batch "N":

    tests/onnx/resnet50_onnx.py OUT.onnx [--fc-bias]

It is the network of models/resnet50.pto: the same layers, sizes and
strides, and, like it, a classifier without a bias unless --fc-bias (then
it is torchvision's, whose Gemm adds one). Generated at test time so that
the repository holds no 50 MB of weights."""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

rng = np.random.default_rng(50)
nodes, inits = [], []


def weight(name, shape, scale=0.05):
    inits.append(numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(np.float16), name))
    return name


def conv_bn(x, name, in_ch, out_ch, k, stride=1, relu=True):
    w = weight(name + ".weight", (out_ch, in_ch, k, k))
    p = k // 2
    nodes.append(helper.make_node("Conv", [x, w], [name + ".conv"], name=name, kernel_shape=[k, k],
                                  strides=[stride, stride], pads=[p, p, p, p]))
    bn = name.replace("conv", "bn").replace("downsample", "downsample.bn")
    params = [weight(bn + ".weight", (out_ch,)), weight(bn + ".bias", (out_ch,)),
              weight(bn + ".running_mean", (out_ch,))]
    inits.append(numpy_helper.from_array((rng.random(out_ch) + 0.5).astype(np.float16), bn + ".running_var"))
    params.append(bn + ".running_var")
    nodes.append(helper.make_node("BatchNormalization", [name + ".conv"] + params, [bn + ".out"], name=bn,
                                  epsilon=1e-5))
    if not relu:
        return bn + ".out"
    nodes.append(helper.make_node("Relu", [bn + ".out"], [name + ".relu"], name=name + ".relu"))
    return name + ".relu"


def bottleneck(x, name, in_ch, width, stride):
    out_ch = width * 4
    y = conv_bn(x, name + ".conv1", in_ch, width, 1)
    y = conv_bn(y, name + ".conv2", width, width, 3, stride)
    y = conv_bn(y, name + ".conv3", width, out_ch, 1, relu=False)
    if stride != 1 or in_ch != out_ch:
        x = conv_bn(x, name + ".downsample", in_ch, out_ch, 1, stride, relu=False)
    nodes.append(helper.make_node("Add", [y, x], [name + ".add"], name=name + ".add"))
    nodes.append(helper.make_node("Relu", [name + ".add"], [name + ".out"], name=name + ".relu"))
    return name + ".out", out_ch


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    fc_bias = "--fc-bias" in argv[2:]
    x = conv_bn("input", "conv1", 3, 64, 7, 2)
    nodes.append(helper.make_node("MaxPool", [x], ["maxpool"], name="maxpool", kernel_shape=[3, 3], strides=[2, 2],
                                  pads=[1, 1, 1, 1]))
    x, ch = "maxpool", 64
    for s, (width, blocks, stride) in enumerate([(64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)]):
        for b in range(blocks):
            x, ch = bottleneck(x, "layer%d.%d" % (s + 1, b), ch, width, stride if b == 0 else 1)
    nodes.append(helper.make_node("GlobalAveragePool", [x], ["avgpool"], name="avgpool"))
    nodes.append(helper.make_node("Flatten", ["avgpool"], ["flatten"], name="flatten", axis=1))
    gemm_in = ["flatten", weight("fc.weight", (1000, 2048))]
    if fc_bias:
        gemm_in.append(weight("fc.bias", (1000,)))
    nodes.append(helper.make_node("Gemm", gemm_in, ["output"], name="fc", transB=1))
    g = helper.make_graph(nodes, "resnet50", [helper.make_tensor_value_info("input", TensorProto.FLOAT16,
                                                                           ["N", 3, 224, 224])],
                          [helper.make_tensor_value_info("output", TensorProto.FLOAT16, ["N", 1000])], inits)
    m = helper.make_model(g, producer_name="davinci-sim tests", opset_imports=[helper.make_opsetid("", 13)])
    save(m, argv[1])


if __name__ == "__main__":
    main(sys.argv)
