/**
 * Air-quality grades 1–6 (SPEC.md §9): excellent, good, light, moderate, heavy, severe.
 *
 * A concentration on a cut-off still belongs to the lower grade (HJ 633: PM2.5 0–35 µg/m³ is
 * excellent), and the worst grade among the pollutants is the station's grade.
 */
export type Pollutant = 'pm25' | 'pm10' | 'tvoc';
export type AirQualityGrade = 1 | 2 | 3 | 4 | 5 | 6;

export const AIR_QUALITY_CUTOFFS: Record<Pollutant, readonly number[]> = {
  pm25: [35, 75, 115, 150, 250],
  pm10: [50, 150, 250, 300, 420],
  // TVOC has four cut-offs, so it reaches grade 5 at most.
  tvoc: [1200, 2000, 8000, 12000],
};

export const POLLUTANTS = Object.keys(AIR_QUALITY_CUTOFFS) as Pollutant[];

/** The grade of one pollutant's concentration in µg/m³; null when missing or impossible. */
export function pollutantGrade(pollutant: Pollutant, value: number | null | undefined): AirQualityGrade | null {
  if (value === null || value === undefined || !Number.isFinite(value) || value < 0) return null;
  let grade = 1;
  for (const cutoff of AIR_QUALITY_CUTOFFS[pollutant]) {
    if (value > cutoff) grade += 1;
    else break;
  }
  return grade as AirQualityGrade;
}

export interface AirQuality {
  grade: AirQualityGrade;
  /**
   * The pollutants at the station's grade, which set it; empty when the air is excellent, since
   * no pollutant is then called primary.
   */
  primary: Pollutant[];
}

/** The station's grade: the worst of the pollutants measured. Null when none was measured. */
export function airQuality(values: Partial<Record<Pollutant, number | null | undefined>>): AirQuality | null {
  const grades = POLLUTANTS.map((pollutant) => [pollutant, pollutantGrade(pollutant, values[pollutant])] as const).filter(
    (entry): entry is readonly [Pollutant, AirQualityGrade] => entry[1] !== null,
  );
  if (grades.length === 0) return null;
  const grade = Math.max(...grades.map(([, g]) => g)) as AirQualityGrade;
  const primary = grade === 1 ? [] : grades.filter(([, g]) => g === grade).map(([pollutant]) => pollutant);
  return { grade, primary };
}
