/**
 * The wire checks of a placement body (POST/PUT/PATCH …/placements) and of a nested
 * `placements_attributes` item (docs/reference/API-FACTS.md §10.1, §6.10; docs/DESIGN.md ruling 13:
 * a nested item keeps and checks its postcode too). The same in every version.
 *
 * Wire decision: a name is at most {@link PLACEMENT_NAME_MAX} characters (`name is too long (maximum
 * is 255 characters)`, §6.4's wording), as the OpenAPI document states; the reference sets no length.
 */
import { NESTED_PLACEMENT_PREFIX } from '@app/trainees/decider';
import type { PlacementFields } from '@app/trainees/record';
import { IsText, MaxChars, Satisfies, UK_POSTCODE_PATTERN, isValidUkPostcode, textOf } from './constraints';
import { WireObject, type WireField } from './wire-object';

/** Exactly six digits (docs/reference/API-FACTS.md §10.1). */
const URN_FORMAT = /^[0-9]{6}$/;

/** Longest placement name accepted, in characters: longer than any school's name, and small beside the body limit. */
export const PLACEMENT_NAME_MAX = 255;

function placementFields(prefix: string): WireField[] {
  const options = { prefix };
  return [
    {
      wire: 'urn',
      canonical: 'urn',
      checks: [
        Satisfies(
          'urn',
          (v) => URN_FORMAT.test(textOf(v) ?? ''),
          (label) => `${label} is invalid`,
          options,
        ),
      ],
      convert: (v) => textOf(v),
      schema: {
        type: ['string', 'null'],
        pattern: URN_FORMAT.source,
        description: "The school's unique reference number, six digits. A URN of the schools directory links the placement to that school.",
        example: '900020',
      },
    },
    {
      wire: 'name',
      canonical: 'name',
      checks: [IsText(options), MaxChars(PLACEMENT_NAME_MAX, options)],
      convert: (v) => textOf(v),
      schema: {
        type: ['string', 'null'],
        maxLength: PLACEMENT_NAME_MAX,
        description: 'Required unless the URN names a school of the directory.',
        example: 'Oak Primary School',
      },
    },
    {
      wire: 'postcode',
      canonical: 'postcode',
      checks: [
        Satisfies(
          'postcode',
          (v) => isValidUkPostcode(textOf(v) ?? ''),
          (label) => `${label} Enter a valid postcode (for example, BN1 1AA)`,
          options,
        ),
      ],
      convert: (v) => textOf(v)!.trim(),
      schema: { type: ['string', 'null'], pattern: UK_POSTCODE_PATTERN, description: 'A full UK postcode.', example: 'GU1 1AA' },
    },
  ];
}

/** A placement body's `data`. */
export const PLACEMENT_WIRE = new WireObject<PlacementFields>('PlacementInput', placementFields(''));

/** One item of a trainee create's `placements_attributes` (messages prefixed, §5.2). */
export const NESTED_PLACEMENT_WIRE = new WireObject<PlacementFields>('NestedPlacementInput', placementFields(NESTED_PLACEMENT_PREFIX));
