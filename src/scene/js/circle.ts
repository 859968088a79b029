// The exact test of a circle (sphere) range, shared by both js Scene cores, as
// assembly/scene/circle.ts is by the wasm ones. The cores run it only after the
// circle's bounding box held the point.

/** True when (x, y, z) lies in the closed sphere of radius r around (cx, cy, cz): dx² + dy² + dz² <= r². */
export function inCircle(cx: number, cy: number, cz: number, r: number, x: number, y: number, z: number): boolean {
  const dx = x - cx;
  const dy = y - cy;
  const dz = z - cz;
  return dx * dx + dy * dy + dz * dz <= r * r;
}
