// RDL sizes ("1.5in", "2.54cm", "72pt") read as inches and written back in the unit they had.

export type SizeUnit = 'in' | 'cm' | 'mm' | 'pt' | 'pc';

const PER_INCH: Record<SizeUnit, number> = { in: 1, cm: 2.54, mm: 25.4, pt: 72, pc: 6 };

/** A size in inches, or undefined when the text is not an RDL size. */
export function toInches(size: string | undefined): number | undefined {
  const m = /^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*(in|cm|mm|pt|pc)\s*$/.exec(size ?? '');
  if (!m) return undefined;
  return Number(m[1]) / PER_INCH[m[2] as SizeUnit];
}

/** The unit a size is written in (inches when it is not a size). */
export function unitOf(size: string | undefined): SizeUnit {
  return (/(in|cm|mm|pt|pc)\s*$/.exec(size ?? '')?.[1] as SizeUnit | undefined) ?? 'in';
}

/** Inches written as an RDL size in a unit: at most five decimals, no trailing zeros. */
export function fromInches(inches: number, unit: SizeUnit = 'in'): string {
  const v = Math.round(inches * PER_INCH[unit] * 100000) / 100000;
  return `${Object.is(v, -0) ? 0 : v}${unit}`;
}

/** A point size ("10pt") as points, or undefined. */
export const toPoints = (size: string | undefined) => {
  const inches = toInches(size);
  return inches === undefined ? undefined : inches * 72;
};
