/** What a grantee may do besides reading a device (docs/api.md, "Sharing"). */
export interface Purview {
  /** Edit the device's name and profile. */
  rename: boolean;
  /** Edit settings, soil settings included. */
  settings: boolean;
  /** Download data and export the device list. */
  export: boolean;
}

export const PURVIEW_KEYS = ['rename', 'settings', 'export'] as const satisfies readonly (keyof Purview)[];
export type PurviewKey = (typeof PURVIEW_KEYS)[number];

export const NO_PURVIEW: Purview = { rename: false, settings: false, export: false };

/** A grant link shares devices; a transfer link moves their ownership. */
export type LinkKind = 'grant' | 'transfer';

/** A device as the dialog offers it for sharing. */
export interface ShareDevice {
  poiId: number;
  name: string;
  sn?: string;
}

/** A link just created: PUT /apis/grant/credential or /apis/transfer/credential. Times are unix milliseconds. */
export interface ShareLink {
  id: string;
  kind: LinkKind;
  /** The acceptance page, /apps/authoried/{kind}?credential={id}, as a full address. */
  link: string;
  expireAt: number;
  purview: Purview;
  devices: { poiId: number; name: string; sn: string; typeName: string }[];
}

/** GET /apis/device/credential/{id}: what a link offers. An unavailable link carries only id and status. */
export type LinkDescription =
  | {
      id: string;
      status: 'available';
      kind: LinkKind;
      expireAt: number;
      from: { name: string };
      purview: Purview;
      devices: { name: string; typeName: string; model: string }[];
    }
  | { id: string; status: 'unavailable' };

/** POST /apis/grant/accept/{id}. */
export interface AcceptResult {
  kind: LinkKind;
  devices: { id: number; name: string }[];
}

/** Where a device's detail page is: its kind, hash id and id. */
export interface DeviceRef {
  poiId: number;
  hashId: string;
  page: string;
  name: string;
  sn: string;
  typeName: string;
}

/** Someone a device is shared with. */
export interface Grantee {
  uid: number;
  name: string;
  accountNumber: string;
  purview: Purview;
  grantTime: number;
}

/** GET /apis/granted/users: an account and the devices I share with it. */
export interface GrantedUser {
  uid: number;
  name: string;
  accountNumber: string;
  devices: (DeviceRef & { purview: Purview; grantTime: number })[];
}

/** GET /apis/granted/devices: one of my devices and everyone it is shared with. */
export interface GrantedDevice extends DeviceRef {
  users: Grantee[];
}

/** GET /apis/authorized/devices: a device someone shares with me. */
export interface SharedDevice extends DeviceRef {
  owner: { uid: number; name: string };
  purview: Purview;
  grantTime: number;
}

/** GET /apis/poi/query/permissions. */
export interface Permission {
  owner: boolean;
  purview: Purview;
}

/** Envelope code of a link that expired, was used, or is one's own (docs/api.md). */
export const CODE_LINK_UNAVAILABLE = 1409;
