import * as assert from 'node:assert/strict';
import { maskLocalPaths } from '../../../src/core/model/safety/localPaths';

describe('local paths hidden from a model provider', () => {
  const linux = { home: '/home/ada', workspace: '/home/ada/src/shop' };

  it('writes the workspace relative, the folder itself as `.`, and the rest of home as `~`', () => {
    const text = [
      'cwd: /home/ada/src/shop',
      '> [tool:Read] /home/ada/src/shop/src/cart.ts',
      'The config is in /home/ada/.config/shop/settings.json, see /home/ada/src/shop.',
      'file:///home/ada/src/shop/README.md and "/home/ada/notes.txt"',
    ].join('\n');
    assert.equal(
      maskLocalPaths(text, linux),
      [
        'cwd: .',
        '> [tool:Read] src/cart.ts',
        'The config is in ~/.config/shop/settings.json, see ..',
        'file://README.md and "~/notes.txt"',
      ].join('\n'),
    );
  });

  it('leaves alone paths that only start or end like them', () => {
    const text = '/home/adam/x /mnt/home/ada/y /home/ada.old/z /home/ada/src/shop-2/a /tmp/build';
    assert.equal(maskLocalPaths(text, linux), '/home/adam/x /mnt/home/ada/y /home/ada.old/z ~/src/shop-2/a /tmp/build');
  });

  it('a session that ran elsewhere: its folder relative too; a workspace that is the home folder: only `~`', () => {
    assert.equal(
      maskLocalPaths('cd /Users/bob/shop && cat /Users/bob/shop/x.ts', { ...linux, cwd: '/Users/bob/shop' }),
      'cd . && cat x.ts',
    );
    assert.equal(maskLocalPaths('/home/ada/src/a.ts', { home: '/home/ada', workspace: '/home/ada' }), '~/src/a.ts');
  });

  it('Windows: either slash, JSON-doubled backslashes, any letter case', () => {
    const windows = { home: 'C:\\Users\\Ada', workspace: 'C:\\Users\\Ada\\src\\shop' };
    const text = 'C:\\Users\\Ada\\src\\shop\\src\\cart.ts c:/users/ada/src/shop/b.ts "C:\\\\Users\\\\Ada\\\\AppData" C:\\Users\\Ada';
    assert.equal(maskLocalPaths(text, windows), 'src\\cart.ts b.ts "~\\\\AppData" ~');
  });

  it('changes nothing without the folders', () => {
    assert.equal(maskLocalPaths('/home/ada/x', undefined), '/home/ada/x');
  });
});
