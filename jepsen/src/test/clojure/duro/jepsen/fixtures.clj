(ns duro.jepsen.fixtures
  "The hand-written histories under src/test/resources/fixtures, for the checkers' tests."
  (:require [clojure.java.io :as io]
            [duro.jepsen.history :as h]))

(defn load-fixture
  "The fixture named `file` (e.g. \"la-g0.edn\"), indexed."
  [file]
  (h/index (h/read-edn (io/resource (str "fixtures/" file)))))

(defn fixture-names
  "The names of the fixtures whose file names start with `prefix`, sorted."
  [prefix]
  (->> (.list (io/file (.toURI (io/resource "fixtures"))))
       (filter #(.startsWith ^String % prefix))
       sort))

(defmacro skip-unless
  "Runs body if (available?) is true; else prints why the test is skipped."
  [available? tool & body]
  `(if (~available?)
     (do ~@body)
     (println "SKIPPED:" ~tool "is not installed, so this cross-check cannot run")))
