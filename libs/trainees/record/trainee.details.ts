/** A trainee's placements and degrees as stored, and schools, under canonical names. Dates `YYYY-MM-DD`; instants ISO 8601 UTC, ms. */

/** A school of the schools directory (the public schools register: URN, name, town, postcode). */
export interface School {
  urn: string;
  name: string;
  town: string | null;
  postcode: string | null;
}

/** A school placement (docs/spec/trainee-records-api.md "Placement object"; docs/reference/API-FACTS.md §10). */
export interface Placement {
  placement_id: string;
  urn: string | null;
  name: string | null;
  postcode: string | null;
  /** Derived: the school's, else the URN and postcode; null when nothing (docs/reference/API-FACTS.md §10.3; docs/DESIGN.md ruling 13). */
  address: string | null;
  /** The linked school's id (its URN as an integer) or null; shown only where the spec says (docs/DESIGN.md ruling 10). */
  school_id: number | null;
  created_at: string;
  updated_at: string;
}

/** A placement as validated, before it has an id and timestamps. */
export type PlacementInput = Pick<Placement, 'urn' | 'name' | 'postcode' | 'address' | 'school_id'>;

/** A previous degree (docs/spec/trainee-records-api.md "Degree object"; docs/reference/API-FACTS.md §11). Codes or null. */
export interface Degree {
  degree_id: string;
  uk_degree: string | null;
  non_uk_degree: string | null;
  subject: string | null;
  institution: string | null;
  grade: string | null;
  country: string | null;
  graduation_year: number | null;
  other_grade: string | null;
  institution_uuid: string | null;
  uk_degree_uuid: string | null;
  subject_uuid: string | null;
  grade_uuid: string | null;
  created_at: string;
  updated_at: string;
}

/** A degree as validated, before it has an id and timestamps. */
export type DegreeInput = Omit<Degree, 'degree_id' | 'created_at' | 'updated_at'>;
