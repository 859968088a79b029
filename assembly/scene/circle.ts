// The exact test of a circle (sphere) range, shared by both Scene cores. The
// cores run it only after the circle's bounding box held the point, so the
// index's box search stays the whole candidate search.

/** The point (x, y, z) lies in the closed sphere of radius r around (cx, cy, cz): dx² + dy² + dz² <= r² (z terms are 0 in 2-D). */
@inline export function inCircle(cx: f64, cy: f64, cz: f64, r: f64, x: f64, y: f64, z: f64): bool {
  const dx = x - cx;
  const dy = y - cy;
  const dz = z - cz;
  return dx * dx + dy * dy + dz * dz <= r * r;
}
