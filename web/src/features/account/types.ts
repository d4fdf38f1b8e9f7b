export interface Profile {
  accountNumber: string;
  name: string;
  phone: string | null;
  mail: string | null;
  wechatBound: boolean;
  /** Unix milliseconds. */
  registeredAt: number;
  /** Unix milliseconds; null before the first login. */
  lastLoginAt: number | null;
  /** e.g. ["password"]. */
  loginMethods: string[];
  /** The farm's IANA zone (the server's --timezone): device times are shown on its clock. */
  timezone: string;
}
