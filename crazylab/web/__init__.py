"""The HTTP side: the Voilà launcher (:mod:`.serve`), the class API (:mod:`.class_api`), the
shared tables' API and pages (:mod:`.tables_api`) and the crazylab Voilà template
(``jupyter/``). Nothing below it knows about HTTP."""
