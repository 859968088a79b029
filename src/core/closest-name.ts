// Picks the valid name a mistyped one most likely meant, for "did you mean"
// hints in error messages.

/** Levenshtein distance between a and b, ignoring case. */
function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    for (let j = 1; j <= t.length; j++) {
      const substitution = previous[j - 1] + (s[i - 1] === t[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, substitution);
    }
    previous = current;
  }
  return previous[t.length];
}

/** Length of the longest run of characters a and b share, ignoring case. */
function longestSharedRun(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let longest = 0;
  for (let i = 0; i < s.length; i++) {
    for (let j = 0; j < t.length; j++) {
      let k = 0;
      while (i + k < s.length && j + k < t.length && s[i + k] === t[j + k]) k++;
      if (k > longest) longest = k;
    }
  }
  return longest;
}

/**
 * The candidate closest to name: one that contains name or is contained in it
 * (case aside, both at least 3 characters, so 'x' is no match for every name
 * with an x) first, then the smallest edit distance, ties going to the
 * longest shared run of characters ('viewRange' is as far from 'index' as from
 * 'defaultRange', but shares 'Range' with the latter). Undefined when there
 * are no candidates.
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestScore: number[] = [];
  for (const candidate of candidates) {
    const other = candidate.toLowerCase();
    const contained = Math.min(lower.length, other.length) >= 3 && (other.includes(lower) || lower.includes(other)) ? 0 : 1;
    const score = [contained, editDistance(name, candidate), -longestSharedRun(name, candidate)];
    if (best === undefined || (score[0] - bestScore[0] || score[1] - bestScore[1] || score[2] - bestScore[2]) < 0) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}
