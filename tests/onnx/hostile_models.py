#!/usr/bin/python3
"""Hostile and unsupported ONNX models, one per message of the importer
(docs/errors.md, "ONNX models"), written with Debian's python3-onnx:

    tests/onnx/hostile_models.py OUT_DIR          write every model
    tests/onnx/hostile_models.py --check DIR      DIR holds exactly these bytes (ctest)
    tests/onnx/hostile_models.py --doc            the catalogue's entries, expected blocks empty
                                                  (scripts/errors_doc.py --update fills them)

The models are committed (tests/onnx/hostile/), each a few hundred bytes,
so that the catalogue's commands name them."""
import os
import sys

import numpy as np
from onnx import AttributeProto, ModelProto, TensorProto, helper, numpy_helper

F16, F32, I64 = TensorProto.FLOAT16, TensorProto.FLOAT, TensorProto.INT64


def vi(name, shape, t=F16):
    return helper.make_tensor_value_info(name, t, shape)


def ints(name, values):
    return numpy_helper.from_array(np.array(values, dtype=np.int64), name)


def floats(name, values, dtype=np.float16):
    return numpy_helper.from_array(np.array(values, dtype=dtype), name)


def mk(nodes, inputs=None, outputs=None, inits=(), opset=13):
    inputs = [vi("x", [1, 4, 8, 8])] if inputs is None else inputs
    outputs = [vi("y", None)] if outputs is None else outputs
    g = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


def node(op, ins, outs=("y",), **attrs):
    return helper.make_node(op, list(ins), list(outs), name=op.lower(), **attrs)


def patched(m, old, new):
    """The model's bytes with every `old` replaced (names protobuf's Python API will not take)."""
    b = m.SerializeToString()
    assert old in b and len(old) == len(new)
    return b.replace(old, new)


W3 = floats("w", np.zeros((4, 4, 3, 3)))
BN = [floats(n, [1, 1, 1, 1]) for n in ("s", "b", "m", "v")]


def conv(**attrs):
    return mk([node("Conv", ["x", "w"], **attrs)], inits=[W3])


def pool(op="MaxPool", x=(1, 4, 8, 8), **attrs):
    return mk([node(op, ["x"], **attrs)], inputs=[vi("x", list(x))])


def shape_then(op, *others, inits=(), **attrs):
    return mk([node("Shape", ["x"], ["s"]), node(op, ["s", *others], **attrs)], inits=inits)


def model_bytes():
    m = ModelProto()
    m.producer_name = "not a model"
    return m


def external():
    t = floats("w", [1.0])
    t.ClearField("raw_data")
    t.data_location = TensorProto.EXTERNAL
    t.external_data.add(key="location", value="w.bin")
    return mk([node("Add", ["x", "w"])], inits=[t])


def short_initializer():
    t = TensorProto(name="w", data_type=F32, dims=[1000], raw_data=b"\0" * 8)
    return mk([node("MatMul", ["x", "w"])], inits=[t])


def sequence_input():
    seq = helper.make_value_info("x", helper.make_sequence_type_proto(helper.make_tensor_type_proto(F16, [4])))
    return mk([node("Relu", ["x"])], inputs=[seq])


def no_shape_input():
    v = vi("x", None)
    v.type.tensor_type.ClearField("shape")
    return mk([node("Relu", ["x"])], inputs=[v])


def typed_attr(op, ins, name, value, inits=()):
    n = node(op, ins)
    n.attribute.append(helper.make_attribute(name, value))
    return mk([n], inits=inits)


def string_constant():
    t = TensorProto(name="c", data_type=TensorProto.STRING, dims=[1], string_data=[b"a"])
    return mk([node("Constant", [], ["c"], value=t), node("Add", ["x", "c"])])


def no_opset():
    m = mk([node("Relu", ["x"])])
    del m.opset_import[:]
    return m


def no_graph():
    m = mk([node("Relu", ["x"])])
    m.ClearField("graph")
    return m


def gelu_without_output():
    nodes = [node("Div", ["x", "r2"], ["d"]), node("Erf", ["d"], ["e"]), node("Add", ["e", "one"], ["a"]),
             node("Mul", ["x", "a"], ["m"]), helper.make_node("Mul", ["m", "half"], [], name="last")]
    return mk(nodes, inits=[floats("r2", [np.sqrt(2)]), floats("one", [1]), floats("half", [0.5])])


def shape_doubling(op, count):
    nodes = [node("Shape", ["x"], ["s0"])]
    for i in range(count):
        nodes.append(helper.make_node(op, ["s%d" % i] * 2, ["s%d" % (i + 1)], name="%s%d" % (op.lower(), i),
                                      **({"axis": 0} if op == "Concat" else {})))
    nodes.append(node("Reshape", ["x", "s%d" % count]))
    return mk(nodes, inputs=[vi("x", [1, 4, "H", 8])])


def resize(scales=None, sizes=None, x=(1, 4, 8, 8), opset=13, **attrs):
    inits = [floats("scales", scales, np.float32)] if scales is not None else []
    inits += [ints("sizes", sizes)] if sizes is not None else []
    ins = ["x", "", "scales" if scales is not None else ""] + (["sizes"] if sizes is not None else [])
    return mk([node("Resize", ins, **attrs)], inputs=[vi("x", list(x))], inits=inits, opset=opset)


# (file name, catalogue heading, model or bytes, extra arguments)
CASES = [
    ("truncated", "a truncated model", lambda: conv().SerializeToString()[:150], []),
    ("no_ir_version", "a message that is not a model", model_bytes, []),
    ("no_graph", "a model without a graph", no_graph, []),
    ("no_opset", "no opset of the default domain", no_opset, []),
    ("opset18", "an opset above 17", lambda: mk([node("Relu", ["x"])], opset=18), []),
    ("external_data", "an initializer in an external file", external, []),
    ("string_initializer", "a constant of strings", string_constant, []),
    ("negative_dim", "an initializer with a negative dimension",
     lambda: mk([node("Add", ["x", "w"])], inits=[TensorProto(name="w", data_type=F32, dims=[-3])]), []),
    ("huge_initializer", "an initializer of too many elements",
     lambda: mk([node("Add", ["x", "w"])], inits=[TensorProto(name="w", data_type=F32, dims=[65536, 65536])]), []),
    ("short_initializer", "an initializer shorter than its dims", short_initializer, []),
    ("short_values", "an initializer with fewer values than its dims",
     lambda: mk([node("MatMul", ["x", "w"])], inits=[TensorProto(name="w", data_type=F32, dims=[4], float_data=[1, 2])]),
     []),
    ("opset6", "an opset below 7", lambda: mk([node("Relu", ["x"])], opset=6), []),
    ("two_initializers", "two initializers of one name",
     lambda: mk([node("Add", ["x", "w"])], inits=[floats("w", [1]), floats("w", [2])]), []),
    ("sequence_input", "an input that is not a tensor", sequence_input, []),
    ("string_input", "an input of strings",
     lambda: mk([node("Relu", ["x"])], inputs=[vi("x", [4], TensorProto.STRING)]), []),
    ("no_shape_input", "an input without a shape", no_shape_input, []),
    ("scalar_input", "a scalar input", lambda: mk([node("Relu", ["x"])], inputs=[vi("x", [])]), []),
    ("huge_dim", "an input dimension out of range",
     lambda: mk([node("Relu", ["x"])], inputs=[vi("x", [1, 1 << 40])]), []),
    ("input_twice", "two inputs of one name",
     lambda: mk([node("Add", ["x", "x"])], inputs=[vi("x", [4]), vi("x", [4])]), []),
    ("input_not_utf8", "a name that is not UTF-8",
     lambda: patched(mk([node("Relu", ["xxxx"])], inputs=[vi("xxxx", [4])]), b"xxxx", b"x\xff\xfex"), []),
    ("initializer_not_utf8", "an initializer name that is not UTF-8",
     lambda: patched(mk([node("Add", ["x", "wwww"])], inits=[floats("wwww", np.ones(4))]), b"wwww", b"w\xff\xfew"),
     []),
    ("output_not_utf8", "an output name that is not UTF-8",
     lambda: patched(mk([node("Relu", ["x"], ["yyyy"])], outputs=[vi("yyyy", None)]), b"yyyy", b"y\xff\xfey"), []),
    ("output_defined_twice", "two nodes writing one tensor",
     lambda: mk([node("Relu", ["x"]), node("Sigmoid", ["x"])]), []),
    ("missing_input", "a node input nothing produces", lambda: mk([node("Relu", ["nowhere"])]), []),
    ("cycle", "a graph with a cycle", lambda: mk([node("Relu", ["b"], ["a"]), node("Relu", ["a"], ["b"]),
                                                   node("Add", ["x", "a"])]), []),
    ("domain", "an operator of another domain",
     lambda: mk([helper.make_node("FusedConv", ["x"], ["y"], name="fused", domain="com.microsoft")]), []),
    ("unsupported_op", "an unsupported operator", lambda: mk([node("LSTM", ["x"])]), []),
    ("erf", "an operator the language cannot express", lambda: mk([node("Erf", ["x"])]), []),
    ("node_without_output", "a node without an output",
     lambda: mk([node("Relu", ["x"], []), node("Relu", ["x"])]), []),
    ("no_outputs", "a graph without outputs", lambda: mk([node("Relu", ["x"])], outputs=[]), []),
    ("output_not_produced", "a graph output nothing produces",
     lambda: mk([node("Relu", ["x"])], outputs=[vi("z", None)]), []),
    ("output_is_input", "a graph output that is an input", lambda: mk([node("Identity", ["x"])]), []),
    ("output_twice", "one tensor as two outputs",
     lambda: mk([node("Relu", ["x"]), node("Identity", ["y"], ["y2"])], outputs=[vi("y", None), vi("y2", None)]),
     []),
    ("empty_input", "a required input left empty", lambda: mk([node("Relu", [""])]), []),
    ("shape_as_tensor", "a shape used as a tensor", lambda: shape_then("Relu"), []),
    ("resize_scales_input", "Resize scales given as an input",
     lambda: mk([node("Resize", ["x", "", "s"])], inputs=[vi("x", [1, 4, 8, 8]), vi("s", [4], F32)]), []),
    ("slice_bound_open", "a bound known only at run time",
     lambda: mk([node("Shape", ["x"], ["s"]), node("Slice", ["x", "s", "s"])], inputs=[vi("x", ["N", 4])]),
     ["--shape", "x=2,4"]),
    ("attr_not_int", "an attribute of the wrong type (INT)", lambda: conv(group=1.0), []),
    ("attr_not_float", "an attribute of the wrong type (FLOAT)",
     lambda: mk([node("BatchNormalization", ["x", "s", "b", "m", "v"], epsilon=1)], inits=BN), []),
    ("attr_not_ints", "an attribute of the wrong type (INTS)", lambda: conv(strides=[1.0, 1.0]), []),
    ("attr_not_string", "an attribute of the wrong type (STRING)", lambda: conv(auto_pad=1), []),
    ("attr_not_tensor", "an attribute of the wrong type (TENSOR)",
     lambda: mk([node("Constant", [], ["c"], value=[1, 2]), node("Add", ["x", "c"])]), []),
    ("unknown_attr", "an attribute the importer does not know", lambda: mk([node("Relu", ["x"], alpha=1.0)]), []),
    ("name_taken", "a folded weight's name taken by an input",
     lambda: mk([node("Gemm", ["x", "w"], transB=1), node("Add", ["y", "w.T"], ["z"])],
                inputs=[vi("x", [2, 4]), vi("w.T", [2, 4])], outputs=[vi("z", None)],
                inits=[floats("w", np.ones((4, 4)))]), []),
    ("int_constant_as_tensor", "an integer constant used as a tensor",
     lambda: mk([node("Add", ["x", "k"])], inits=[ints("k", [1, 2, 3, 4])]), []),
    ("axis_out_of_range", "an axis out of range", lambda: mk([node("Softmax", ["x"], axis=4)]), []),
    ("shape_broadcast", "shapes that do not broadcast", lambda: shape_then("Add", "k", inits=[ints("k", [1, 2])]),
     []),
    ("shape_max", "arithmetic on shapes that is not folded", lambda: shape_then("Max", "s"), []),
    ("shape_overflow", "shape arithmetic that overflows",
     lambda: shape_then("Mul", "k", inits=[ints("k", [1 << 62, 1 << 62, 1 << 62, 1 << 62])]), []),
    ("shape_div_zero", "a shape divided by zero", lambda: shape_then("Div", "k", inits=[ints("k", [0])]), []),
    ("clip_vector_bound", "a Clip bound of several values",
     lambda: mk([node("Clip", ["x", "lo"])], inits=[floats("lo", [0, 1])]), []),
    ("add_three_inputs", "an Add of three inputs", lambda: mk([node("Add", ["x", "x", "x"])]), []),
    ("max_no_inputs", "a Max of no inputs", lambda: mk([node("Max", [])]), []),
    ("shape_plus_tensor", "a shape added to a tensor", lambda: shape_then("Add", "x"), []),
    ("pow_vector", "a Pow exponent of several values",
     lambda: mk([node("Pow", ["x", "e"])], inits=[floats("e", [2, 2])]), []),
    ("pow_three", "a power the language has no operation for",
     lambda: mk([node("Pow", ["x", "e"])], inits=[floats("e", [3])]), []),
    ("conv_asymmetric_pads", "Conv pads that differ by side", lambda: conv(pads=[0, 0, 1, 1]), []),
    ("conv_negative_pads", "negative Conv pads", lambda: conv(pads=[-1, -1, -1, -1]), []),
    ("conv_pads_length", "Conv pads of the wrong length", lambda: conv(pads=[1, 1]), []),
    ("conv_auto_pad_unknown", "an unknown auto_pad", lambda: conv(auto_pad="SAME"), []),
    ("conv_auto_pad_open_size", "auto_pad on a size the model leaves open",
     lambda: mk([node("Conv", ["x", "w"], auto_pad="SAME_UPPER")], inputs=[vi("x", [1, 4, "H", 8])], inits=[W3]),
     ["--shape", "x=1,4,8,8"]),
    ("conv_auto_pad_odd", "auto_pad padding unequally",
     lambda: mk([node("Conv", ["x", "w"], auto_pad="SAME_UPPER")], inits=[floats("w", np.zeros((4, 4, 2, 2)))]),
     []),
    ("conv_strides_length", "Conv strides of the wrong length", lambda: conv(strides=[1, 1, 1]), []),
    ("conv_strides_zero", "Conv strides of zero", lambda: conv(strides=[0, 1]), []),
    ("conv_huge_pads", "Conv pads beyond the importer's limit", lambda: conv(pads=[1 << 40] * 4), []),
    ("conv_1d", "a 1-D convolution",
     lambda: mk([node("Conv", ["x", "w"])], inputs=[vi("x", [1, 4, 8])], inits=[floats("w", np.zeros((4, 4, 3)))]),
     []),
    ("conv_weight_rank", "a Conv weight that is not 4-D",
     lambda: mk([node("Conv", ["x", "w"])], inits=[floats("w", np.zeros((4, 4, 3)))]), []),
    ("conv_kernel_shape", "a kernel_shape that disagrees with the weight", lambda: conv(kernel_shape=[5, 5]), []),
    ("conv_group_zero", "a Conv group of zero", lambda: conv(group=0), []),
    ("matmul_1d", "a MatMul of a vector",
     lambda: mk([node("MatMul", ["x", "w"])], inputs=[vi("x", [4, 8])], inits=[floats("w", np.zeros(8))]), []),
    ("gemm_a_3d", "a Gemm of a 3-D A",
     lambda: mk([node("Gemm", ["x", "w"])], inits=[floats("w", np.zeros((8, 8)))]), []),
    ("gemm_b_3d", "a Gemm of a 3-D B",
     lambda: mk([node("Gemm", ["x", "w"], transB=1)], inputs=[vi("x", [4, 8])],
                inits=[floats("w", np.zeros((2, 8, 8)))]), []),
    ("bn_training", "a BatchNormalization in training mode",
     lambda: mk([node("BatchNormalization", ["x", "s", "b", "m", "v"], training_mode=1)], inits=BN, opset=14), []),
    ("bn_rank1", "a BatchNormalization without a channel axis",
     lambda: mk([node("BatchNormalization", ["x", "s", "b", "m", "v"])], inputs=[vi("x", [4])], inits=BN), []),
    ("bn_lengths", "BatchNormalization statistics of different lengths",
     lambda: mk([node("BatchNormalization", ["x", "s", "b", "m", "v"])], inits=BN[:3] + [floats("v", [1, 1])]),
     []),
    ("bn_channels", "BatchNormalization statistics for other channels",
     lambda: mk([node("BatchNormalization", ["x", "s", "b", "m", "v"])],
                inits=[floats(n, [1, 1, 1]) for n in ("s", "b", "m", "v")]), []),
    ("layer_norm_mean_output", "a LayerNormalization's Mean output",
     lambda: mk([node("LayerNormalization", ["x", "g"], ["y", "mean"])], inits=[floats("g", np.ones(8))],
                opset=17), []),
    ("layer_norm_open_scale", "a LayerNormalization without B whose Scale's size is open",
     lambda: mk([node("LayerNormalization", ["x", "g"])], inputs=[vi("x", [2, "D"]), vi("g", ["D"])], opset=17),
     ["--shape", "x=2,8", "--shape", "g=8"]),
    ("layer_norm_huge_scale", "a LayerNormalization without B whose Scale is too large",
     lambda: mk([node("LayerNormalization", ["x", "g"], axis=-3)],
                inputs=[vi("x", [2, 1 << 20, 1 << 20, 1 << 20]), vi("g", [1 << 20, 1 << 20, 1 << 20])], opset=17),
     []),
    ("softmax_opset11", "an opset 11 Softmax over two axes",
     lambda: mk([node("Softmax", ["x"], axis=2)], opset=11), []),
    ("maxpool_indices", "a MaxPool's Indices output",
     lambda: mk([node("MaxPool", ["x"], ["y", "i"], kernel_shape=[2, 2])]), []),
    ("pool_1d", "a 1-D pooling", lambda: pool(x=(1, 4, 8), kernel_shape=[2]), []),
    ("pool_no_kernel", "a pooling without kernel_shape", lambda: pool(), []),
    ("pool_kernel_length", "a pooling kernel_shape of one value", lambda: pool(kernel_shape=[2]), []),
    ("pool_dilated", "a dilated pooling", lambda: pool(kernel_shape=[2, 2], dilations=[2, 2]), []),
    ("pool_storage_order", "a MaxPool storage_order", lambda: pool(kernel_shape=[2, 2], storage_order=1), []),
    ("pool_auto_pad", "a pooling auto_pad SAME padding unequally",
     lambda: pool(kernel_shape=[2, 2], auto_pad="SAME_UPPER"), []),
    ("pool_asymmetric_pads", "pooling pads that differ by side",
     lambda: pool(kernel_shape=[3, 3], pads=[0, 0, 1, 1]), []),
    ("avgpool_exclude_pad", "an AveragePool that leaves the padding out",
     lambda: pool("AveragePool", kernel_shape=[3, 3], pads=[1, 1, 1, 1]), []),
    ("pool_ceil_open_size", "ceil_mode on a size the model leaves open",
     lambda: pool(x=(1, 4, "H", 8), kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1), ["--shape", "x=1,4,8,8"]),
    ("pool_ceil_window", "ceil_mode adding a window",
     lambda: pool(kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1), []),
    ("global_pool_3d", "a global pooling of a 3-D tensor",
     lambda: mk([node("GlobalAveragePool", ["x"])], inputs=[vi("x", [1, 4, 8])]), []),
    ("reduce_axis_twice", "a reduction axis given twice", lambda: mk([node("ReduceMean", ["x"], axes=[1, 1])]), []),
    ("reduce_to_scalar", "a reduction to a scalar", lambda: mk([node("ReduceSum", ["x"], keepdims=0)]), []),
    ("reshape_to_scalar", "a Reshape to a scalar",
     lambda: mk([node("Reshape", ["x", "k"])], inputs=[vi("x", [1])],
                inits=[numpy_helper.from_array(np.zeros(0, dtype=np.int64), "k")]), []),
    ("constant_two_values", "a Constant of two values",
     lambda: mk([node("Constant", [], ["c"], value_float=1.0, value_int=1), node("Add", ["x", "c"])]), []),
    ("constant_value_floats_type", "a Constant value_floats that are integers",
     lambda: mk([node("Constant", [], ["c"], value_floats=[1, 2]), node("Add", ["x", "c"])]), []),
    ("constant_sparse", "a sparse Constant",
     lambda: mk([node("Constant", [], ["c"], value_string="a"), node("Add", ["x", "c"])]), []),
    ("gather_shape_index", "an index past a shape", lambda: shape_then("Gather", "k", inits=[ints("k", 7)]), []),
    ("gather_axis1", "a Gather by a tensor along axis 1",
     lambda: mk([node("Gather", ["t", "i"], axis=1)], inputs=[vi("i", [3], I64)], inits=[floats("t", np.zeros((10, 4)))]),
     []),
    ("gather_no_indices", "a Gather of no indices",
     lambda: mk([node("Gather", ["x", "k"])], inits=[numpy_helper.from_array(np.zeros(0, dtype=np.int64), "k")]),
     []),
    ("gather_negative_open", "a negative index into a size the model leaves open",
     lambda: mk([node("Gather", ["x", "k"], axis=1)], inputs=[vi("x", [1, "S", 8])], inits=[ints("k", -1)]),
     ["--shape", "x=1,4,8"]),
    ("gather_out_of_range", "a Gather index past its axis",
     lambda: mk([node("Gather", ["x", "k"], axis=1)], inits=[ints("k", [9])]), []),
    ("gather_not_a_run", "Gather indices that are not a run",
     lambda: mk([node("Gather", ["x", "k"], axis=1)], inits=[ints("k", [0, 2])]), []),
    ("gather_to_scalar", "a Gather to a scalar",
     lambda: mk([node("Gather", ["x", "k"])], inputs=[vi("x", [8])], inits=[ints("k", 3)]), []),
    ("concat_no_inputs", "a Concat of nothing", lambda: mk([node("Concat", [], axis=0)]), []),
    ("unsqueeze_shape", "an Unsqueeze of a whole shape", lambda: shape_then("Unsqueeze", "k", inits=[ints("k", [0])]),
     []),
    ("squeeze_shape", "a Squeeze of a whole shape", lambda: shape_then("Squeeze"), []),
    ("squeeze_open_sizes", "a Squeeze without axes of sizes left open",
     lambda: mk([node("Squeeze", ["x"])], inputs=[vi("x", ["N", 1, 8])]), ["--shape", "x=2,1,8"]),
    ("squeeze_not_one", "a Squeeze of an axis that is not 1",
     lambda: mk([node("Squeeze", ["x", "k"])], inits=[ints("k", [2])]), []),
    ("reshape_allowzero", "a Reshape with allowzero and a 0",
     lambda: mk([node("Reshape", ["x", "k"], allowzero=1)], inits=[ints("k", [0, -1])], opset=14), []),
    ("reshape_zero_past_rank", "a Reshape 0 past the input's axes",
     lambda: mk([node("Reshape", ["x", "k"])], inits=[ints("k", [1, 1, 1, 4, 0])]), []),
    ("reshape_two_inferred", "a Reshape with two -1s",
     lambda: mk([node("Reshape", ["x", "k"])], inits=[ints("k", [-1, -1])]), []),
    ("reshape_negative", "a Reshape to a negative size",
     lambda: mk([node("Reshape", ["x", "k"])], inits=[ints("k", [-2, 4])]), []),
    ("flatten_axis", "a Flatten axis out of range", lambda: mk([node("Flatten", ["x"], axis=7)]), []),
    ("transpose_perm", "a Transpose perm that repeats an axis",
     lambda: mk([node("Transpose", ["x"], perm=[0, 0, 1, 2])]), []),
    ("slice_lengths", "Slice starts and ends of different lengths",
     lambda: mk([node("Slice", ["x", "a", "b"])], inits=[ints("a", [0]), ints("b", [1, 1])]), []),
    ("slice_axes_length", "Slice axes of another length",
     lambda: mk([node("Slice", ["x", "a", "b", "c"])], inits=[ints("a", [0]), ints("b", [1]), ints("c", [0, 1])]),
     []),
    ("slice_shape_two_axes", "a Slice of a shape over two axes",
     lambda: shape_then("Slice", "a", "a", inits=[ints("a", [0, 0])]), []),
    ("slice_axis_twice", "a Slice of one axis twice",
     lambda: mk([node("Slice", ["x", "a", "b", "c"])], inits=[ints("a", [0, 0]), ints("b", [1, 1]), ints("c", [1, 1])]),
     []),
    ("slice_backwards", "a Slice stepping backwards",
     lambda: mk([node("Slice", ["x", "a", "b", "c", "d"])],
                inits=[ints("a", [4]), ints("b", [0]), ints("c", [1]), ints("d", [-1])]), []),
    ("slice_negative_open", "a negative Slice bound on a size left open",
     lambda: mk([node("Slice", ["x", "a", "b"])], inputs=[vi("x", ["N", 4])], inits=[ints("a", [-2]), ints("b", [-1])]),
     ["--shape", "x=4,4"]),
    ("slice_empty", "an empty Slice",
     lambda: mk([node("Slice", ["x", "a", "b"])], inits=[ints("a", [5]), ints("b", [2])]), []),
    ("cast_shape_to_float", "a shape cast to a float", lambda: shape_then("Cast", to=F32), []),
    ("cast_to_int64", "a tensor cast to INT64", lambda: mk([node("Cast", ["x"], to=I64)]), []),
    ("second_output", "a second output the operator does not compute",
     lambda: mk([node("Relu", ["x"], ["r", "r2"]), node("Add", ["r", "r2"])]), []),
    ("gelu_without_output", "a GELU pattern whose last Mul has no output", gelu_without_output, []),
    ("gather_indices_2d", "Gather indices of rank 2",
     lambda: mk([node("Gather", ["x", "k"], axis=1)], inits=[ints("k", [[0, 1], [2, 3]])]), []),
    ("constant_inf", "an infinite constant operand",
     lambda: mk([node("Mul", ["x", "c"])], inits=[floats("c", [np.inf])]), []),
    ("clip_attrs_opset11", "Clip's min attribute at opset 11",
     lambda: mk([node("Clip", ["x"], min=0.0)], opset=11), []),
    ("shape_expression_long", "shape arithmetic growing past the limit", lambda: shape_doubling("Add", 12),
     ["--shape", "x=1,4,8,8"]),
    ("shape_too_long", "a shape of too many elements", lambda: shape_doubling("Concat", 5), []),
    ("cast_float_to_int8", "a float tensor cast to INT8", lambda: mk([node("Cast", ["x"], to=TensorProto.INT8)]), []),
    ("initializers_too_many_elements", "initializers of too many elements together",
     lambda: mk([node("Sum", ["x", "a", "b", "c"])],
                inits=[TensorProto(name=n, data_type=F32, dims=[1 << 27]) for n in "abc"]), []),
    ("squeeze_axes_attr_opset13", "Squeeze's axes attribute at opset 13",
     lambda: mk([node("Squeeze", ["x"], axes=[0])]), []),
    ("resize_opset10", "an opset 10 Resize",
     lambda: mk([node("Resize", ["x", "scales"])], inits=[floats("scales", [1, 1, 2, 2], np.float32)], opset=10), []),
    ("resize_cubic", "a Resize in mode cubic", lambda: resize([1, 1, 2, 2], mode="cubic"), []),
    ("resize_align_corners", "a Resize with align_corners",
     lambda: resize([1, 1, 2, 2], mode="linear", coordinate_transformation_mode="align_corners"), []),
    ("resize_nearest_mode_unknown", "an unknown Resize nearest_mode", lambda: resize([1, 1, 2, 2], nearest_mode="round"),
     []),
    ("resize_rank3", "a Resize of a 3-D tensor", lambda: resize([1, 1, 2], x=(1, 4, 8)), []),
    ("resize_scales_and_sizes", "a Resize with both scales and sizes",
     lambda: resize([1, 1, 2, 2], [1, 4, 16, 16]), []),
    ("resize_scales_length", "Resize scales of the wrong length", lambda: resize([2, 2]), []),
    ("resize_scales_fraction", "Resize scales that are not whole numbers", lambda: resize([1, 1, 1.5, 1.5]), []),
    ("resize_sizes_length", "Resize sizes of the wrong length", lambda: resize(sizes=[16, 16]), []),
    ("resize_sizes_channels", "Resize sizes that change the channels", lambda: resize(sizes=[1, 8, 16, 16]), []),
    ("resize_sizes_open", "Resize sizes over a size the model leaves open",
     lambda: resize(sizes=[1, 4, 16, 16], x=(1, 4, "H", 8)), ["--shape", "x=1,4,8,8"]),
    ("resize_sizes_fraction", "Resize sizes that are not a multiple", lambda: resize(sizes=[1, 4, 12, 12]), []),
    ("resize_nearest_rounding", "a nearest Resize that reads other rows",
     lambda: resize([1, 1, 2, 2], coordinate_transformation_mode="half_pixel", nearest_mode="ceil"), []),
]


def write(out):
    os.makedirs(out, exist_ok=True)
    for name, _, make, _ in CASES:
        m = make()
        with open(os.path.join(out, name + ".onnx"), "wb") as f:
            f.write(m if isinstance(m, bytes) else m.SerializeToString())


def check(folder):
    import filecmp
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        write(tmp)
        want = sorted(os.listdir(tmp))
        have = sorted(n for n in os.listdir(folder) if n.endswith(".onnx"))
        if want != have:
            sys.exit("hostile_models: %s holds %s, the script writes %s" % (folder, have, want))
        _, mismatch, errors = filecmp.cmpfiles(tmp, folder, want, shallow=False)
        if mismatch or errors:
            sys.exit("hostile_models: these differ from what the script writes: %s" % (mismatch + errors))


def doc():
    for name, heading, _, args in CASES:
        print("### ONNX: %s\n\n```sh\ndavinci-sim %stests/onnx/hostile/%s.onnx\n```\n```text stderr exit=2\n```\n"
              % (heading, "".join(a + " " for a in args), name))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--check"]:
        check(sys.argv[2])
    elif sys.argv[1:2] == ["--doc"]:
        doc()
    elif len(sys.argv) == 2:
        write(sys.argv[1])
    else:
        sys.exit(__doc__)
