/** A Buffer over the same memory as `bytes` (no copy): what worker messages and COPY chunks arrive as. */
export const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
