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
