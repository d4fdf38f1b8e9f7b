export const COMPRESSIBLE: string[];
export const ENCODINGS: Record<'.br' | '.gz', (data: Buffer) => Promise<Buffer>>;
export function compressible(name: string): boolean;
export interface CompressedFile {
  file: string;
  size: number;
  '.br'?: number;
  '.gz'?: number;
}
export function compressDir(dir: string): Promise<CompressedFile[]>;
