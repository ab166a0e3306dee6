"""The score pad as a static web app on Pyodide (`tourpad publish`): the browser entry point, the browser's
persistent storage, and the site builder. The screens and rules are the same modules `tourpad app` runs."""
