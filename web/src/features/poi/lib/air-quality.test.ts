import { describe, expect, it } from 'vitest';
import { airQuality, pollutantGrade } from './air-quality';

describe('pollutantGrade', () => {
  it.each([
    [0, 1],
    [35, 1],
    [35.1, 2],
    [75, 2],
    [76, 3],
    [115, 3],
    [116, 4],
    [150, 4],
    [151, 5],
    [250, 5],
    [251, 6],
    [999, 6],
  ])('PM2.5 %s µg/m³ is grade %s', (value, grade) => {
    expect(pollutantGrade('pm25', value)).toBe(grade);
  });

  it.each([
    [50, 1],
    [51, 2],
    [150, 2],
    [151, 3],
    [250, 3],
    [251, 4],
    [300, 4],
    [301, 5],
    [420, 5],
    [421, 6],
  ])('PM10 %s µg/m³ is grade %s', (value, grade) => {
    expect(pollutantGrade('pm10', value)).toBe(grade);
  });

  it.each([
    [1200, 1],
    [1201, 2],
    [2000, 2],
    [2001, 3],
    [8000, 3],
    [8001, 4],
    [12000, 4],
    [12001, 5],
    [60000, 5],
  ])('TVOC %s µg/m³ is grade %s', (value, grade) => {
    expect(pollutantGrade('tvoc', value)).toBe(grade);
  });

  it.each([null, undefined, Number.NaN, -1])('has no grade for %s', (value) => {
    expect(pollutantGrade('pm25', value)).toBeNull();
  });
});

describe('airQuality', () => {
  it('takes the worst grade and names the pollutant that sets it', () => {
    expect(airQuality({ pm25: 52, pm10: 74, tvoc: 182 })).toEqual({ grade: 2, primary: ['pm25', 'pm10'] });
    expect(airQuality({ pm25: 20, pm10: 260, tvoc: 2500 })).toEqual({ grade: 4, primary: ['pm10'] });
    expect(airQuality({ pm25: 300, pm10: 30, tvoc: 100 })).toEqual({ grade: 6, primary: ['pm25'] });
    expect(airQuality({ pm25: 10, pm10: 10, tvoc: 13000 })).toEqual({ grade: 5, primary: ['tvoc'] });
  });

  it('names no primary pollutant when the air is excellent', () => {
    expect(airQuality({ pm25: 35, pm10: 50, tvoc: 1200 })).toEqual({ grade: 1, primary: [] });
  });

  it('grades on what was measured and gives nothing when nothing was', () => {
    expect(airQuality({ pm25: 80 })).toEqual({ grade: 3, primary: ['pm25'] });
    expect(airQuality({ pm25: null, pm10: undefined })).toBeNull();
    expect(airQuality({})).toBeNull();
  });
});
