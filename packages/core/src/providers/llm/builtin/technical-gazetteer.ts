/**
 * Word lists for technical documents (man pages, READMEs, changelogs, copyright files). All lowercase,
 * compared against `nameKey` forms. Closed sets only: a name missing here is still found by its shape
 * (technical-mentions.ts) or its context (entity-kinds.ts).
 */

const list = (words: string) => new Set(words.trim().split(/\s*,\s*/));

/** Network and application protocols. */
export const protocols = list(`
  tcp, udp, ip, secure shell, ipv4, ipv6, icmp, http, https, http/2, ftp, sftp, ftps, tftp, smtp, imap, pop3, pop, ssh, telnet, dns, dhcp, ntp,
  ldap, snmp, socks, socks4, socks5, tls, ssl, dtls, x11, irc, xmpp, rdp, vnc, nfs, smb, cifs, sctp, quic, websocket, websockets, grpc,
  mqtt, amqp, bgp, ospf, arp, ppp, vpn, ipsec, wireguard, kerberos, oauth, saml, http/1.1, resp, rtsp, rtp, sip, webdav, mdns, ssdp
`);

/** Data, file and text formats. */
export const formats = list(`
  json, yaml, toml, xml, html, xhtml, css, csv, tsv, markdown, restructuredtext, texinfo, latex, pdf, postscript, png, jpeg, jpg, gif,
  svg, webp, tiff, utf-8, utf-16, ascii, unicode, base64, msgpack, protobuf, avro, parquet, sqlite3, ini, deb822, rfc822, mime, rdb,
  aof, tar archive, zip, gzip format, iso 9660, elf, wasm, epub, docx, odt, rtf, man page, troff, groff, sgml, docbook, x.509, pem,
  der, asn.1, cbor, ical, vcard, mbox, maildir, rss, atom
`);

/** Programming languages. */
export const languages = list(`
  python, c, c++, c#, java, javascript, typescript, go, golang, rust, ruby, perl, php, lua, tcl, bash, sh, zsh, haskell, ocaml, erlang,
  elixir, scala, kotlin, swift, objective-c, fortran, cobol, pascal, lisp, common lisp, scheme, clojure, r, julia, matlab, sql, abc,
  modula-3, smalltalk, ada, dart, groovy, awk, sed, prolog, assembly, webassembly, emacs lisp, elisp, vala, zig, nim, d
`);

/**
 * Software that is not a command name on its own: operating systems, distributions, libraries, servers
 * and projects that technical text names without saying what they are.
 */
export const software = list(`
  linux, gnu/linux, unix, posix, bsd, freebsd, openbsd, netbsd, dragonfly bsd, macos, mac os x, os x, osx, solaris, smartos,
  illumos, windows, android, ios, debian, ubuntu, centos, fedora, red hat, rhel, arch linux, gentoo, alpine, suse, opensuse, mint,
  raspbian, openssh, openssl, libressl, gnutls, libc, glibc, musl, jemalloc, tcmalloc, libssl, zlib, ncurses, readline, libffi, gtk,
  qt, systemd, sysvinit, upstart, launchd, redis, valkey, memcached, postgresql, postgres, mysql, mariadb, sqlite, mongodb, cassandra,
  elasticsearch, kafka, rabbitmq, nginx, apache, lighttpd, haproxy, varnish, docker, podman, kubernetes, git, subversion, mercurial,
  cvs, emacs, vim, neovim, nano, gnome, kde, xfce, wayland, x.org, xorg, x window system, openbsd's, gcc, clang, llvm, binutils,
  coreutils, busybox, gnu tar, gnu make, autoconf, automake, cmake, meson, ninja, node.js, nodejs, npm, pip, pypi, cpython, pypy,
  jvm, openjdk, dotnet, .net, perl 5, tk, lua jit, luajit, hiredis, linenoise, lzf, libevent, libuv, boost, curl, libcurl, wget, rsync,
  openvpn, wireguard-tools, bind, dnsmasq, postfix, sendmail, exim, dovecot, samba, cups, pulseaudio, pipewire, alsa, mesa, vulkan,
  opengl, firefox, chromium, thunderbird, libreoffice, gimp, inkscape, tex, texlive, pandoc, doxygen, sphinx, dpkg, apt, rpm, yum,
  dnf, pacman, snap, flatpak, homebrew, zope, beos, minix, plan 9, multics, mozilla, gnu, gnu project
`);

/**
 * Commands that take a subcommand, written "git add" or "git-add": the pair is one command. Only
 * these tools, so that "tar the files" never becomes a command named "tar the".
 */
export const subcommandTools = list(`
  git, apt, apt-get, dpkg, docker, podman, kubectl, systemctl, journalctl, npm, pnpm, yarn, pip, cargo, go, gh, svn, hg, ip, nmcli,
  snap, flatpak, brew, conda, openssl, redis-cli, ssh-keygen
`);

/** Words of licences and warranty disclaimers: never a name on their own, in any case. */
export const licenceWords = list(`
  warranty, warranties, merchantability, fitness, particular, purpose, particular purpose, liability, liable, damages, damage,
  disclaimer, disclaimed, infringement, noninfringement, non-infringement, negligence, tort, contract, copyright, copyrights,
  copyright notice, license, licence, licensed, licensee, licensor, licenses, licences, redistribution, redistributions, permission,
  permissions, notice, implied, express, consequential, incidental, exemplary, special, indirect, direct, procurement, substitute,
  goods, services, profits, interruption, holders, holder, contributors, as is, no warranty, without warranty, all rights reserved,
  rights, reserved, terms, conditions, provided, software, author, authors, thereof, hereby, herein, whatsoever
`);

/**
 * Ordinary words that manuals and READMEs capitalise at the start of a sentence, a list item or a
 * heading ("Use archive suffix …", "Display a list …", "Certain Redis commands …"): not names alone.
 */
export const manualWords = list(`
  use, using, used, see, note, notes, example, examples, description, synopsis, options, option, usage, name, names, files, file,
  environment, bugs, bug, author, authors, history, overview, introduction, summary, default, defaults, data, certain, basic, new,
  huge, big, small, simple, other, others, more, less, most, least, first, last, next, previous, open, close, send, request, display,
  list, show, print, set, get, add, remove, delete, create, update, filter, decrease, increase, enable, disable, start, stop, run,
  build, install, installing, building, running, playing, fixing, selecting, verbose, quiet, background, foreground, disconnect,
  forwarding, port, ports, changes, change, fix, fixes, fixed, upload, non-maintainer, thanks, closes, please, currently, specifies,
  specify, only, always, never, all, any, each, every, both, either, neither, none, yes, no, true, false, null, ok, error, errors,
  warning, warnings, help, info, debug, trace, test, tests, return, value, values, type, types, mode, modes, level, levels, key, keys,
  break, pong, ping, bar, foo, baz, suffix, prog, allow, deny, legacy, historically, generally, typically, normally, optionally,
  obsolete, deprecated, required, optional, important, warning, caution, tip, todo, done, also, however, therefore, thus, hence,
  finally, instead, otherwise, meanwhile, there, here, where, what, when, why, how, which, who, release, version, versions, patch,
  patches, package, packages, source, sources, binary, binaries, library, libraries, server, client, service, command, commands,
  program, programs, tool, tools, utility, system, systems, user, users, group, groups, host, hosts, network, networks, protocol,
  software, hardware, manual, page, pages, chapter, section, table, figure, contents, index, appendix, glossary, preface, legal,
  legal notice, copyright, license, gpl-compatible, compatible, footnotes, owner, year, derived, thru, above, below, another, some,
  many, several, such, same, own, cautions, tunable, known, unknown, unsupported, supported, support, monotonic, allocator
`);

/**
 * Commands whose names are no English word, found in lowercase anywhere ("invoked by tar", "Background
 * ssh"). Commands named by a word ("make", "date", "man") are found only by their notation.
 */
export const commands = list(`
  ssh, scp, sftp, ssh-agent, ssh-add, ssh-keygen, sshd, telnet, rsync, curl, wget, tar, gzip, gunzip, bzip2, xz, lzip, lzma, lzop, zstd,
  unzip, cpio, rmt, grep, egrep, awk, gawk, sed, chmod, chown, chgrp, mkdir, rmdir, ls, cp, mv, rm, ln, df, du, ps, sudo, su, bash, zsh,
  csh, ksh, dash, xterm, emacs, vim, vi, nano, systemctl, journalctl, useradd, usermod, groupadd, passwd, crontab, dpkg, apt-get,
  apt-cache, aptitude, iptables, nft, ifconfig, netstat, nslookup, traceroute, tcpdump, gpg, openssl, redis-cli, redis-server, git, npm,
  pnpm, pip, pip3, python3, node, make, cmake, gcc, clang
`);

/** Nouns that, after "X is a …" or right after a name, say what kind of technical thing it is. */
export const technicalNouns = new Map<
  string,
  'software' | 'command' | 'protocol' | 'format' | 'language' | 'setting' | 'organisation'
>([
  ['team', 'organisation'],
  ['foundation', 'organisation'],
  ['program', 'software'],
  ['programs', 'software'],
  ['application', 'software'],
  ['library', 'software'],
  ['libraries', 'software'],
  ['framework', 'software'],
  ['package', 'software'],
  ['project', 'software'],
  ['server', 'software'],
  ['daemon', 'software'],
  ['database', 'software'],
  ['distribution', 'software'],
  ['kernel', 'software'],
  ['compiler', 'software'],
  ['interpreter', 'software'],
  ['editor', 'software'],
  ['utility', 'command'],
  ['command', 'command'],
  ['tool', 'command'],
  ['protocol', 'protocol'],
  ['protocols', 'protocol'],
  ['format', 'format'],
  ['language', 'language'],
  ['option', 'setting'],
  ['directive', 'setting'],
  ['setting', 'setting'],
  ['variable', 'setting'],
]);
