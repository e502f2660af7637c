/**
 * The digest as reply items (read_digest, and recall_context without a query or files): the
 * newest open tasks, open questions, decisions, facts and playbooks, each with its id, read from
 * the ends of the category files as the digest itself is, items held for review left out.
 */
import { CATEGORY_FILES } from '../../model/categories';
import { itemId } from '../../model/itemId';
import { withoutBullet } from '../../model/itemLines';
import { parseProvenance, stripProvenance } from '../../model/provenance';
import { digestSectionsFromFiles } from '../../store/digest';
import { DIGEST_SECTIONS } from '../../model/digestFormat';
import type { StorePaths } from '../../store/storePaths';
import { itemFromLine, type ReplyItem } from './toolReply';

/** The items, best first within each section, with the section each belongs to. */
export function digestItems(paths: StorePaths, budgetBytes: number): Array<{ item: ReplyItem; section: string }> {
  const sections = digestSectionsFromFiles(paths, budgetBytes);
  return sections.flatMap((section, i) => {
    const key = DIGEST_SECTIONS[i].file;
    return section.items.map((line) => {
      const prov = parseProvenance(line);
      const text = stripProvenance(withoutBullet(line)).trim();
      const item = itemFromLine({
        id: itemId(line),
        category: key,
        file: CATEGORY_FILES[key].file,
        text,
        source: prov?.source,
        date: prov?.validDate ? prov.date : undefined,
      });
      return { item, section: `## ${section.title}` };
    });
  });
}
