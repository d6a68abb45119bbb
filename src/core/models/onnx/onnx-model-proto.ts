// The ONNX model protobuf (onnx/onnx.proto, IR 10), every message and field, so a model decoded here and encoded
// again keeps all it had; protobufjs drops fields its schema does not name. Types below cover what the code reads.
import protobuf from 'protobufjs';

const schema = `
syntax = "proto2";
package onnx;
message AttributeProto {
  optional string name = 1; optional string ref_attr_name = 21; optional string doc_string = 13;
  optional int32 type = 20; optional float f = 2; optional int64 i = 3; optional bytes s = 4;
  optional TensorProto t = 5; optional GraphProto g = 6; optional SparseTensorProto sparse_tensor = 22;
  optional TypeProto tp = 14; repeated float floats = 7; repeated int64 ints = 8; repeated bytes strings = 9;
  repeated TensorProto tensors = 10; repeated GraphProto graphs = 11;
  repeated SparseTensorProto sparse_tensors = 23; repeated TypeProto type_protos = 15;
}
message ValueInfoProto {
  optional string name = 1; optional TypeProto type = 2; optional string doc_string = 3;
  repeated StringStringEntryProto metadata_props = 4;
}
message NodeProto {
  repeated string input = 1; repeated string output = 2; optional string name = 3; optional string op_type = 4;
  optional string domain = 7; optional string overload = 8; repeated AttributeProto attribute = 5;
  optional string doc_string = 6; repeated StringStringEntryProto metadata_props = 9;
  repeated NodeDeviceConfigurationProto device_configurations = 10;
}
message IntIntListEntryProto { optional int64 key = 1; repeated int64 value = 2; }
message NodeDeviceConfigurationProto {
  optional string configuration_id = 1; repeated ShardingSpecProto sharding_spec = 2; optional int32 pipeline_stage = 3;
}
message ShardingSpecProto {
  optional string tensor_name = 1; repeated int64 device = 2;
  repeated IntIntListEntryProto index_to_device_group_map = 3; repeated ShardedDimProto sharded_dim = 4;
}
message ShardedDimProto { optional int64 axis = 1; repeated SimpleShardedDimProto simple_sharding = 2; }
message SimpleShardedDimProto { optional int64 dim_value = 1; optional string dim_param = 2; optional int64 num_shards = 3; }
message TrainingInfoProto {
  optional GraphProto initialization = 1; optional GraphProto algorithm = 2;
  repeated StringStringEntryProto initialization_binding = 3; repeated StringStringEntryProto update_binding = 4;
}
message ModelProto {
  optional int64 ir_version = 1; repeated OperatorSetIdProto opset_import = 8; optional string producer_name = 2;
  optional string producer_version = 3; optional string domain = 4; optional int64 model_version = 5;
  optional string doc_string = 6; optional GraphProto graph = 7; repeated StringStringEntryProto metadata_props = 14;
  repeated TrainingInfoProto training_info = 20; repeated FunctionProto functions = 25;
  repeated DeviceConfigurationProto configuration = 26;
}
message DeviceConfigurationProto { optional string name = 1; optional int32 num_devices = 2; repeated string device = 3; }
message StringStringEntryProto { optional string key = 1; optional string value = 2; }
message TensorAnnotation { optional string tensor_name = 1; repeated StringStringEntryProto quant_parameter_tensor_names = 2; }
message GraphProto {
  repeated NodeProto node = 1; optional string name = 2; repeated TensorProto initializer = 5;
  repeated SparseTensorProto sparse_initializer = 15; optional string doc_string = 10;
  repeated ValueInfoProto input = 11; repeated ValueInfoProto output = 12; repeated ValueInfoProto value_info = 13;
  repeated TensorAnnotation quantization_annotation = 14; repeated StringStringEntryProto metadata_props = 16;
}
message TensorProto {
  message Segment { optional int64 begin = 1; optional int64 end = 2; }
  repeated int64 dims = 1; optional int32 data_type = 2; optional Segment segment = 3;
  repeated float float_data = 4 [packed = true]; repeated int32 int32_data = 5 [packed = true];
  repeated bytes string_data = 6; repeated int64 int64_data = 7 [packed = true]; optional string name = 8;
  optional string doc_string = 12; optional bytes raw_data = 9; repeated StringStringEntryProto external_data = 13;
  optional int32 data_location = 14; repeated double double_data = 10 [packed = true];
  repeated uint64 uint64_data = 11 [packed = true]; repeated StringStringEntryProto metadata_props = 16;
}
message SparseTensorProto { optional TensorProto values = 1; optional TensorProto indices = 2; repeated int64 dims = 3; }
message TensorShapeProto {
  message Dimension {
    oneof value { int64 dim_value = 1; string dim_param = 2; }
    optional string denotation = 3;
  }
  repeated Dimension dim = 1;
}
message TypeProto {
  message Tensor { optional int32 elem_type = 1; optional TensorShapeProto shape = 2; }
  message Sequence { optional TypeProto elem_type = 1; }
  message Map { optional int32 key_type = 1; optional TypeProto value_type = 2; }
  message Optional { optional TypeProto elem_type = 1; }
  message SparseTensor { optional int32 elem_type = 1; optional TensorShapeProto shape = 2; }
  oneof value {
    Tensor tensor_type = 1; Sequence sequence_type = 4; Map map_type = 5; Optional optional_type = 9;
    SparseTensor sparse_tensor_type = 8;
  }
  optional string denotation = 6;
}
message OperatorSetIdProto { optional string domain = 1; optional int64 version = 2; }
message FunctionProto {
  optional string name = 1; repeated string input = 4; repeated string output = 5; repeated string attribute = 6;
  repeated AttributeProto attribute_proto = 11; repeated NodeProto node = 7; optional string doc_string = 8;
  repeated OperatorSetIdProto opset_import = 9; optional string domain = 10; optional string overload = 13;
  repeated ValueInfoProto value_info = 12; repeated StringStringEntryProto metadata_props = 14;
}
`;

const root = protobuf.parse(schema, { keepCase: true }).root;
const ModelProtoType = root.lookupType('onnx.ModelProto');

/** int64 fields decode as Long objects when the long package is present, as numbers otherwise. */
export type Int64 = number | { toNumber(): number };
export const int64 = (value: Int64 | undefined | null): number =>
  value == null ? 0 : typeof value === 'number' ? value : value.toNumber();

export interface StringEntry {
  key: string;
  value: string;
}

export interface TensorProto {
  name: string;
  dims: Int64[];
  data_type: number;
  raw_data?: Uint8Array;
  float_data?: number[];
  external_data?: StringEntry[];
  data_location?: number;
  int64_data?: Int64[];
}

export interface AttributeProto {
  name: string;
  type?: number;
  i?: Int64;
  ints?: Int64[];
  g?: GraphProto;
  graphs?: GraphProto[];
}

export interface NodeProto {
  input: string[];
  output: string[];
  name?: string;
  op_type: string;
  domain?: string;
  attribute?: AttributeProto[];
}

export interface Dimension {
  dim_value?: Int64;
  dim_param?: string;
}

export interface ValueInfoProto {
  name: string;
  type?: { tensor_type?: { elem_type?: number; shape?: { dim?: Dimension[] } } };
}

export interface GraphProto {
  node: NodeProto[];
  initializer: TensorProto[];
  input: ValueInfoProto[];
  output: ValueInfoProto[];
  value_info: ValueInfoProto[];
}

export interface ModelProto {
  graph: GraphProto;
  metadata_props: StringEntry[];
}

export const TensorType = {
  FLOAT: 1,
  UINT8: 2,
  INT8: 3,
  INT64: 7,
  FLOAT16: 10,
  DOUBLE: 11,
  BFLOAT16: 16,
} as const;
export const AttributeType = { GRAPH: 5, GRAPHS: 10 } as const;

/** Bytes per element of the tensor types a language-model head can have. */
export function elementBytes(dataType: number): number | undefined {
  const sizes: Record<number, number> = { 1: 4, 2: 1, 3: 1, 4: 2, 5: 2, 6: 4, 7: 8, 10: 2, 11: 8, 16: 2 };
  return sizes[dataType];
}

/** Decodes a .onnx file; `bytes` fields come back as views into `bytes` (no copy). */
export function decodeModel(bytes: Uint8Array): ModelProto {
  const model = ModelProtoType.decode(bytes) as unknown as ModelProto;
  const graph = model.graph;
  if (!graph) throw new Error('the file holds no graph');
  // Absent repeated fields read as a shared frozen empty array: give each its own copy to edit.
  model.metadata_props = [...(model.metadata_props ?? [])];
  for (const key of ['node', 'initializer', 'input', 'output', 'value_info'] as const) {
    (graph[key] as unknown[]) = [...(graph[key] ?? [])];
  }
  return model;
}

export function encodeModel(model: ModelProto): Uint8Array {
  return ModelProtoType.encode(model as unknown as protobuf.Message).finish();
}
