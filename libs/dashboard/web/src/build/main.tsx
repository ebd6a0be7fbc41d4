/** The Build page's entry: the app mounts on the server's `#build-app`, configured by its data-config. */
import { render } from 'preact';
import { BuildApp } from './build-app';
import { readConfig } from './config';

const root = document.getElementById('build-app');
if (root) {
  const config = readConfig(root);
  // The shell's "loading" line goes: Preact would otherwise reuse its element for the app's first one.
  root.replaceChildren();
  render(<BuildApp config={config} />, root);
}
