/** Placeholder of the Build page's entry (issue 36): the build-ui helper replaces it. */
const root = document.getElementById('build-app');
if (root) root.textContent = '';
