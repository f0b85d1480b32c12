import axe from 'axe-core';

/**
 * Runs axe on an element and returns the violations as readable strings (empty when clean).
 * color-contrast needs layout, which jsdom does not do; contrast is checked in the token review.
 */
export async function axeViolations(element: Element): Promise<string[]> {
  const results = await axe.run(element, {
    rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
  });
  return results.violations.map(
    (violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.html).join(', ')})`,
  );
}
