import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { Profile } from '../types';
import { getProfileQueryOptions } from './get-profile';

/** Where a verification code goes. */
export type Channel = 'email' | 'mobile';

/** A code was sent: the ticket names it in the call that uses it. */
export interface CodeSent {
  ticket: string;
  /** Masked: f***@example.com, 138****8000. */
  address: string;
  /** Seconds. */
  expiresIn: number;
  /** Seconds before another code may be asked for. */
  resendIn: number;
}

/** What the login page may offer besides the password. */
export interface LoginMethods {
  wechat: boolean;
  email: boolean;
  mobile: boolean;
}

/** A WeChat QR code to show and the token its result is polled with. */
export interface QRScan {
  token: string;
  qrcodeUrl: string;
  expiresIn: number;
}

/** pending, bound, taken, expired (binding); pending, expired, unlinked, done (login). */
export interface ScanResult {
  status: 'pending' | 'bound' | 'taken' | 'expired' | 'unlinked' | 'done' | 'scanned';
  profile?: Profile;
}

export interface CodeProof {
  channel: Channel;
  code: string;
  ticket: string;
}

export function sendBindCode(channel: Channel, address: string): Promise<CodeSent> {
  const params = channel === 'mobile' ? { phoneNumber: address } : { address };
  return api.get<CodeSent>(`/account/bindings/${channel}/code`, { params });
}

/** A code to the account's bound address on channel, to unbind it. */
export function sendUnbindCode(channel: Channel): Promise<CodeSent> {
  return api.get<CodeSent>('/account/authorize/ticket', { params: { src: channel } });
}

/** A password-reset code to the bound address of the account numbered username (no session). */
export function sendResetCode(channel: Channel, username: string): Promise<CodeSent> {
  return api.get<CodeSent>('/account/authorize/ticket', { params: { src: channel, username } });
}

export function bindAddress(proof: CodeProof): Promise<Profile> {
  return api.post<Profile>('/account/bindings', proof);
}

export function unbindAddress(proof: CodeProof): Promise<Profile> {
  return api.delete<Profile>('/account/bindings', { params: { channel: proof.channel }, body: proof });
}

export interface ResetInput extends CodeProof {
  username: string;
  password: string;
}

export function resetPassword(input: ResetInput): Promise<null> {
  return api.post<null>('/account/password', input);
}

export function getLoginMethods(signal?: AbortSignal): Promise<LoginMethods> {
  return api.get<LoginMethods>('/account/options', { signal });
}

export function useLoginMethods() {
  return useQuery(
    queryOptions({ queryKey: ['account', 'login-methods'], queryFn: ({ signal }) => getLoginMethods(signal), staleTime: 5 * 60_000 }),
  );
}

export function wechatBindQR(): Promise<QRScan> {
  return api.post<QRScan>('/account/wechat/bind/qrcode');
}

export function bindScanResult(token: string, signal?: AbortSignal): Promise<ScanResult> {
  return api.get<ScanResult>('/account/qrscan/result', { params: { token }, signal });
}

export function wechatUnbind(password: string): Promise<Profile> {
  return api.post<Profile>('/account/wechat/unbind', { password });
}

export function wechatLoginQR(): Promise<QRScan> {
  return api.get<QRScan>('/account/authorize/ticket', { params: { src: 'wechat' } });
}

export function loginScanResult(token: string, signal?: AbortSignal): Promise<ScanResult> {
  return api.get<ScanResult>('/oauth/qrscan/result', { params: { token }, signal });
}

/** Stores the profile an account call answered with. */
export function useSetProfile() {
  const queryClient = useQueryClient();
  return (profile: Profile) => queryClient.setQueryData(getProfileQueryOptions().queryKey, profile);
}

export function useBindAddress(onDone?: (profile: Profile) => void) {
  const setProfile = useSetProfile();
  return useMutation({
    mutationFn: bindAddress,
    onSuccess: (profile) => {
      setProfile(profile);
      onDone?.(profile);
    },
  });
}

export function useUnbindAddress(onDone?: (profile: Profile) => void) {
  const setProfile = useSetProfile();
  return useMutation({
    mutationFn: unbindAddress,
    onSuccess: (profile) => {
      setProfile(profile);
      onDone?.(profile);
    },
  });
}

export function useWeChatUnbind(onDone?: (profile: Profile) => void) {
  const setProfile = useSetProfile();
  return useMutation({
    mutationFn: wechatUnbind,
    onSuccess: (profile) => {
      setProfile(profile);
      onDone?.(profile);
    },
  });
}
