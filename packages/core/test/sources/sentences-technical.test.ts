import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sentenceSpans } from '../../src/sources/text/sentences.ts';

/** The sentences of a text on one line each, as chat quotes them. */
const sentences = (text: string) =>
  sentenceSpans(text).map(([start, end]) => text.slice(start, end).replace(/\s+/g, ' '));

describe('sentences of technical text', () => {
  it('never cuts at a dot inside code, a file or host name, a URL or a version', () => {
    expect(
      sentences(
        'This is used by `rdb.c` to create the snapshots on disk and by `aof.c` in order to perform the AOF rewrite when the append only file gets too big. In May 2000, Guido moved to BeOpen.com to form the BeOpen PythonLabs team. OpenSSH is a derivative of the free ssh 1.2.12 release by Tatu Ylonen. See https://redis.io/commands.html for more. Use ssh -L 8080:localhost:80 host.example.org to forward a port.',
      ),
    ).toEqual([
      'This is used by `rdb.c` to create the snapshots on disk and by `aof.c` in order to perform the AOF rewrite when the append only file gets too big.',
      'In May 2000, Guido moved to BeOpen.com to form the BeOpen PythonLabs team.',
      'OpenSSH is a derivative of the free ssh 1.2.12 release by Tatu Ylonen.',
      'See https://redis.io/commands.html for more.',
      'Use ssh -L 8080:localhost:80 host.example.org to forward a port.',
    ]);
  });

  it('keeps abbreviations and ellipses inside their sentence, and ends one at a URL or file name', () => {
    expect(
      sentences(
        'Fileglobs (e.g. *.c) can be given, i.e. patterns. Dr. Watson wrote tar, cpio, etc. and more… then stopped. You can find the commands at https://redis.io/commands. Then run ./install_server.sh. It asks questions.',
      ),
    ).toEqual([
      'Fileglobs (e.g. *.c) can be given, i.e. patterns.',
      'Dr. Watson wrote tar, cpio, etc. and more… then stopped.',
      'You can find the commands at https://redis.io/commands.',
      'Then run ./install_server.sh.',
      'It asks questions.',
    ]);
  });

  it('keeps a numbered licence clause whole, wrapped over lines, and a line wrapped after "the" in its sentence', () => {
    expect(
      sentences(
        'Python software and documentation are licensed under the\nPython Software Foundation License Version 2.\n\n1. This LICENSE AGREEMENT is between the Python Software Foundation\n("PSF"), and the Individual or Organization ("Licensee").\n\n5. PSF SHALL NOT BE LIABLE TO LICENSEE OR ANY OTHER USERS OF PYTHON\nFOR ANY INCIDENTAL, SPECIAL, OR CONSEQUENTIAL DAMAGES.\n- first item\n- second item\nAfter the list.',
      ),
    ).toEqual([
      'Python software and documentation are licensed under the Python Software Foundation License Version 2.',
      '1. This LICENSE AGREEMENT is between the Python Software Foundation ("PSF"), and the Individual or Organization ("Licensee").',
      '5. PSF SHALL NOT BE LIABLE TO LICENSEE OR ANY OTHER USERS OF PYTHON FOR ANY INCIDENTAL, SPECIAL, OR CONSEQUENTIAL DAMAGES.',
      '- first item',
      '- second item',
      'After the list.',
    ]);
  });

  it("ends a manual page's section name and a Setext heading on their own line", () => {
    expect(
      sentences(
        'NAME\n     ssh — OpenSSH remote login client\n\nDESCRIPTION\n     ssh (SSH client) is a program for logging into a remote machine.\n\nWhat is Redis?\n--------------\n\nRedis is often referred to as a data structures server.\nBuilding Redis\n--------------\nRedis can be compiled on Linux.',
      ),
    ).toEqual([
      'NAME',
      'ssh — OpenSSH remote login client',
      'DESCRIPTION',
      'ssh (SSH client) is a program for logging into a remote machine.',
      'What is Redis?',
      'Redis is often referred to as a data structures server.',
      'Building Redis',
      'Redis can be compiled on Linux.',
    ]);
  });

  it('keeps a key sequence written in symbols with what it does', () => {
    expect(
      sentences(
        '     ~.      Disconnect.\n\n     ~?      Display a list of escape characters.\n\n     ~^Z     Background ssh.',
      ),
    ).toEqual(['~. Disconnect.', '~? Display a list of escape characters.', '~^Z Background ssh.']);
  });

  it('quotes the history of Python in whole sentences', () => {
    const text = fs.readFileSync(
      new URL('../../../../tests/fixtures/everyday/python-history.txt', import.meta.url),
      'utf8',
    );
    const found = sentences(text);
    expect(found).toContain(
      'Python was created in the early 1990s by Guido van Rossum at Stichting Mathematisch Centrum (CWI, see https://www.cwi.nl) in the Netherlands as a successor of a language called ABC.',
    );
    expect(found).toContain(
      'In May 2000, Guido and the Python core development team moved to BeOpen.com to form the BeOpen PythonLabs team.',
    );
    expect(found).toContain('4. PSF is making Python available to Licensee on an "AS IS" basis.');
    expect(found.filter((sentence) => /^\d+\.$/.test(sentence))).toEqual([]);
  });
});
