import type { HarvestItems } from '../../../../src/core/model/categories';
import { RulesProvider } from '../../../../src/core/services/providers/rules/rulesProvider';

/**
 * What the rules provider harvests from a transcript, without the `inferred` mark (which items
 * carry it is rulesProvider.test.ts's concern).
 */
export async function harvestOf(content: string): Promise<HarvestItems> {
  const reply = await new RulesProvider().generate({ task: 'harvest', instructions: '', content });
  return JSON.parse(reply.text, (key, value: unknown) => (key === 'inferred' ? undefined : value)) as HarvestItems;
}
