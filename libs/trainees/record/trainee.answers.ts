/** Values a trainee's answer derives from its stored record (the trainee record's table, trainee.record.ts, answers them). */
/**
 * The trainee's funding flags as answered, derived from funding_method (docs/reference/API-FACTS.md
 * §6.7): whether the trainee applies for a bursary, scholarship or grant, and the bursary tier.
 */
export function fundingFlags(method: string | null): { bursary: boolean; scholarship: boolean; grant: boolean; tier: string | null } {
  switch (method) {
    case '4':
      return { bursary: false, scholarship: true, grant: false, tier: null };
    case '7':
      return { bursary: true, scholarship: false, grant: false, tier: 'tier_one' };
    case '8':
      return { bursary: true, scholarship: false, grant: false, tier: 'tier_two' };
    case '9':
      return { bursary: true, scholarship: false, grant: false, tier: 'tier_three' };
    case 'B':
    case 'C':
    case 'D':
      return { bursary: true, scholarship: false, grant: false, tier: null };
    case 'E':
      return { bursary: false, scholarship: false, grant: true, tier: null };
    default:
      return { bursary: false, scholarship: false, grant: false, tier: null };
  }
}
