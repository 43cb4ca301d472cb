/** The funding flags a trainee answers, from its funding_method (docs/reference/API-FACTS.md §6.7). */
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
