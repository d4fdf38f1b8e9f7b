/** One box (w, h > 0) or point (w = h = 0) on a sample, in pixels of the picture. */
export interface Label {
  /** The identifier of the element the label names. */
  element: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** GET /apis/ailab/samples: a labelled picture; times in milliseconds. */
export interface Sample {
  id: number;
  deviceId?: number;
  imageId?: number;
  deviceName: string;
  sn: string;
  sampleTime: number;
  tag: string;
  duration: number;
  location: string;
  contentType: string;
  width: number;
  height: number;
  labels: Label[];
  createTime: number;
  /** Where the picture is served, under /apis. */
  url: string;
}

/** GET /apis/ailab/elements: something labels name, e.g. an insect species. */
export interface Element {
  id: number;
  name: string;
  unit: string;
  identifier: string;
}

/** GET /apis/ailab/sets: one version of a sample set. */
export interface SampleSet {
  id: number;
  name: string;
  version: number;
  description: string;
  /** Exported (or tested) once: editing it writes the next version. */
  used: boolean;
  rows: number;
  columns: number;
  sampleIds: number[];
  createTime: number;
}

/** A camera device of the caller's own, as the device list answers it. */
export interface CameraDevice {
  id: number;
  name: string;
  sn: string;
  page: string;
  /** Opens its detail page (with page and id). */
  hashId: string;
  slave: boolean;
}

/** GET /apis/poi/{id}/images: one camera picture. */
export interface CameraPicture {
  id: number;
  contentType: string;
  size: number;
  time: number;
  url: string;
}

/** What a model's output means: counts, boxes, or a score per element. */
export type ModelKind = 'count' | 'boxes' | 'classes';

/** manifest.json of an .l5d package (docs/ai-lab.md). */
export interface ModelManifest {
  format: number;
  name: string;
  version: string;
  description: string;
  input: { name: string; width: number; height: number; channels: number; layout: string; mean: number[]; std: number[] };
  output: { name: string; kind: ModelKind };
  elements: { name: string; unit: string; identifier: string }[];
}

/** GET /apis/ailab/models: an uploaded package; times in milliseconds. */
export interface Model {
  id: number;
  name: string;
  version: string;
  kind: ModelKind;
  fileName: string;
  /** The package's size in bytes. */
  size: number;
  manifest: ModelManifest;
  /** The ONNX operators its graph uses. */
  operators: string[];
  createTime: number;
  /** Where the package is served. */
  url: string;
}

/** One element's value in a model's result. */
export interface ModelValue {
  identifier: string;
  name: string;
  unit: string;
  value: number;
}

/** A box a "boxes" model found, in pixels of the picture. */
export interface ModelBox {
  element: string;
  x: number;
  y: number;
  w: number;
  h: number;
  score: number;
}

/** A model's result on one sample. */
export interface SampleOutput {
  sampleId: number;
  width: number;
  height: number;
  kind: ModelKind;
  values: ModelValue[];
  boxes: ModelBox[];
  raw: number[];
  /** The time this sample took, in milliseconds. */
  millis: number;
}

/** POST /apis/ailab/models/{id}/test: each sample's result and the whole test's time. */
export interface ModelTest {
  modelId: number;
  kind: ModelKind;
  outputs: SampleOutput[];
  millis: number;
}

/** What an application watches: insect traps or seedling monitors. */
export type AppType = 'insect' | 'seedling';

/** A model's element as an application reports it. */
export interface AppElement {
  name: string;
  unit: string;
  identifier: string;
}

/** A device an application watches. */
export interface AppDevice {
  id: number;
  name: string;
  sn: string;
}

/** An application's runs by state. */
export interface JobCounts {
  queued: number;
  running: number;
  done: number;
  failed: number;
}

/** GET /apis/ailab/applications: a model run on each new picture of its devices while published; times in milliseconds. */
export interface LabApp {
  id: number;
  name: string;
  mediumName: string;
  description: string;
  type: AppType;
  modelId: number;
  modelName: string;
  modelVersion: string;
  kind: ModelKind | '';
  elements: AppElement[];
  deviceIds: number[];
  devices: AppDevice[];
  published: boolean;
  jobs: JobCounts;
  createTime: number;
  updateTime: number;
}

/** GET /apis/ailab/applications/devices?type=: a device an application of the type may watch. */
export interface AppCandidate extends AppDevice {
  typeId: number;
  /** The published application watching it, if any. */
  watchedBy: number | null;
}

/** One element's values in a detection record. */
export interface RecordPackage {
  identifier: string;
  name: string;
  unit: string;
  average: number;
  valid: number;
}

/** GET /apis/fw/detectReports: one run of an application on one picture; times in milliseconds. */
export interface DetectionRecord {
  id: number;
  appId: number | null;
  appName: string;
  deviceId: number;
  deviceName: string;
  sn: string;
  imageId: number | null;
  imageUrl: string;
  detectTime: number;
  location: string;
  lat: number | null;
  lng: number | null;
  packages: RecordPackage[];
  millis: number;
  createTime: number;
}
