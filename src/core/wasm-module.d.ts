// esbuild's loaders (and the test config's twins of them) turn a file import
// into its contents: build/<name>.wasm.gz is a module gzipped, in base64, as
// the package embeds it (WasmModule decodes and unpacks it: atob is smaller
// than the decoder esbuild's binary loader adds), build/<name>.wasm the
// module's bytes as they are.
declare module '*.wasm.gz' {
  const gzipped: string;
  export default gzipped;
}
declare module '*.wasm' {
  const bytes: Uint8Array;
  export default bytes;
}
