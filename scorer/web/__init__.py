"""The score pad as a static web app on Pyodide (`tourpad publish`): the browser entry point and the site
builder. The screens and rules are the same modules `tourpad app` runs; the browser's storage is
`scorer.browser_storage`, under the games store."""
