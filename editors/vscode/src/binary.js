'use strict';
// Where the linkpeek binary is. The `linkpeek.binary` setting wins when it
// is given; otherwise the places the release puts it are tried in order:
// PATH, ~/.local/bin (`make install PREFIX=~/.local`), /usr/local/bin,
// /opt/linkpeek/bin, /usr/bin (the .deb), and the `bin` folder of the prefix
// this extension was installed under (the tarball and the .deb put it in
// <prefix>/share/linkpeek/editors/vscode, the binary in <prefix>/bin).

const fs = require('fs');
const os = require('os');
const path = require('path');

/** The one sentence a user sees when there is no binary (the same in every linkpeek editor plugin). */
const INSTALL = 'linkpeek is not installed: install the .deb or tarball from the releases, '
  + 'or `make install PREFIX=~/.local` from the source (see editors/README.md)';

function executable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch (_) {
    return false;
  }
}

/** <prefix>/bin/linkpeek when `dir` (this file's folder) is <prefix>/share/linkpeek/editors/vscode/src. */
function besideExtension(dir = __dirname) {
  const m = /^(.*)\/share\/linkpeek\/editors\/vscode\/src\/?$/.exec(dir);
  return m ? `${m[1]}/bin/linkpeek` : undefined;
}

/** The files tried after PATH, in order. */
function places(home = os.homedir(), dir = __dirname) {
  return [
    path.join(home, '.local', 'bin', 'linkpeek'),
    '/usr/local/bin/linkpeek',
    '/opt/linkpeek/bin/linkpeek',
    '/usr/bin/linkpeek',
    besideExtension(dir),
  ].filter(Boolean);
}

function onPath(name, envPath) {
  for (const dir of (envPath || '').split(path.delimiter)) {
    if (dir && executable(path.join(dir, name))) return path.join(dir, name);
  }
  return undefined;
}

/**
 * The binary to run: {path} or {missing: sentence}. `setting` is a name on
 * PATH or a path ("~/" expanded); empty or null searches. `env` lets tests
 * give PATH, the home folder and the extension's folder.
 */
function isSet(setting) {
  return typeof setting === 'string' && setting.trim() !== '' && setting.trim() !== 'linkpeek';
}

function find(setting, env = {}) {
  const envPath = env.PATH !== undefined ? env.PATH : process.env.PATH;
  const home = env.home || os.homedir();
  // "linkpeek" (the old default, still in many settings files) looks everywhere too.
  if (isSet(setting)) {
    const s = setting.trim().replace(/^~(?=\/)/, home);
    const file = s.includes('/') ? path.resolve(s) : onPath(s, envPath);
    if (file && executable(file)) return { path: file };
    return { missing: `linkpeek: the linkpeek.binary setting "${setting}" is not an executable file (fix or clear it: cleared, linkpeek is looked for on PATH and where the releases install it)` };
  }
  const found = onPath('linkpeek', envPath) || (env.places || places(home, env.dir)).find(executable);
  return found ? { path: found } : { missing: INSTALL };
}

module.exports = { INSTALL, find, isSet, places, besideExtension };
