/**
 * The digest as reply items (the search tool without query, path or ids): the
 * newest open tasks, open questions, decisions, facts and playbooks, each with its id, read from
 * the ends of the category files as the digest itself is, items held for review left out.
 */
import { CATEGORY_FILES } from '../../model/categories';
import { itemId } from '../../model/itemId';
import { withoutBullet } from '../../model/itemLines';
import { parseProvenance, stripProvenance } from '../../model/provenance';
import { digestSectionsFromFiles } from '../../store/digest';
import { DIGEST_SECTIONS, personalSectionTitle, type DigestSection } from '../../model/digestFormat';
import { hasPersonalLayer } from '../../store/personalLayer';
import { personalFileName, personalStorePaths, type StorePaths } from '../../store/storePaths';
import { itemFromLine, type ReplyItem } from './toolReply';

/** The items, best first within each section, with the section each belongs to. */
export function digestItems(paths: StorePaths, budgetBytes: number): Array<{ item: ReplyItem; section: string }> {
  const shared = layerItems(
    digestSectionsFromFiles(paths, budgetBytes),
    (file) => file,
    (title) => title,
  );
  // The person's own layer (personalLayer.ts) after the shared items, its sections and files named as such.
  if (paths.layer === 'personal' || !hasPersonalLayer(paths)) return shared;
  const personal = layerItems(digestSectionsFromFiles(personalStorePaths(paths), budgetBytes), personalFileName, personalSectionTitle);
  return [...shared, ...personal];
}

/** One layer's digest sections as reply items; `file` and `title` name its files and sections. */
function layerItems(
  sections: DigestSection[],
  file: (name: string) => string,
  title: (section: string) => string,
): Array<{ item: ReplyItem; section: string }> {
  return sections.flatMap((section, i) => {
    const key = DIGEST_SECTIONS[i].file;
    return section.items.map((line) => {
      const prov = parseProvenance(line);
      const text = stripProvenance(withoutBullet(line)).trim();
      const item = itemFromLine({
        id: itemId(line),
        category: key,
        file: file(CATEGORY_FILES[key].file),
        text,
        source: prov?.source,
        date: prov?.validDate ? prov.date : undefined,
      });
      return { item, section: `## ${title(section.title)}` };
    });
  });
}
