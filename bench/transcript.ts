/** The benchmarks' transcript-sized credential: ~1 KB of metadata, varied per credential. */
const WORDS = 'advanced applied algebra analysis art biology calculus chemistry civil data design digital economics ethics finance french geometry history law logic marketing media music networks optics physics policy robotics security statistics systems theory writing'.split(' ');

/**
 * ~1 KB of metadata (a transcript), varied per credential the way real records are: what the
 * issuing jobs and their peers are measured with.
 */
export function metadataOf(n: number): Record<string, unknown> {
  let seed = n * 2_654_435_761;
  const next = (k: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648), seed % k);
  const phrase = (words: number) => Array.from({ length: words }, () => WORDS[next(WORDS.length)]).join(' ');
  return {
    student: `Student ${n}`,
    student_number: `S${String(n).padStart(8, '0')}`,
    programme: 'Computer Science',
    grade: (n % 40) / 10,
    transcript: Array.from({ length: 12 }, () => ({ course: phrase(3), grade: next(100) / 10, credits: 5 })),
    remarks: phrase(12),
  };
}
