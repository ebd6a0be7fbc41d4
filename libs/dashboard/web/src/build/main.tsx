/** The Build page's entry: the app mounts on the server's `#build-app`, configured by its data-config. */
import { render } from 'preact';
import { BuildApp } from './build-app';
import { readConfig } from './config';

const root = document.getElementById('build-app');
if (root) render(<BuildApp config={readConfig(root)} />, root);
