(ns duro.jepsen.util
  "Small helpers shared by the harness: shelling out, logging progress, time."
  (:require [clojure.java.io :as io]
            [clojure.string :as str])
  (:import (java.time LocalTime)
           (java.time.format DateTimeFormatter)
           (java.util.concurrent TimeUnit)))

(def ^:private clock-format (DateTimeFormatter/ofPattern "HH:mm:ss"))

(def ^:private out-lock (Object.))

(defn log
  "Prints one progress line, prefixed with the wall-clock time."
  [& parts]
  (locking out-lock
    (println (str (.format (LocalTime/now) clock-format) " " (str/join " " parts)))
    (flush)))

(defn sh
  "Runs a command (a vector of strings), optionally feeding :in to its stdin. Returns {:exit :out :err}.
  Never throws for a non-zero exit; the caller decides."
  [cmd & {:keys [in timeout-s] :or {timeout-s 30}}]
  (let [pb (ProcessBuilder. ^java.util.List (mapv str cmd))
        p (.start pb)
        out (future (slurp (.getInputStream p)))
        err (future (slurp (.getErrorStream p)))]
    (with-open [w (io/writer (.getOutputStream p))]
      (when in (.write w ^String in)))
    (if (.waitFor p timeout-s TimeUnit/SECONDS)
      {:exit (.exitValue p) :out @out :err @err}
      (do (.destroyForcibly p)
          {:exit -1 :out "" :err (str "timed out after " timeout-s " s: " (str/join " " cmd))}))))

(defn sh!
  "Like sh, but throws when the command fails."
  [cmd & opts]
  (let [{:keys [exit err] :as r} (apply sh cmd opts)]
    (when-not (zero? exit)
      (throw (ex-info (str "command failed (" exit "): " (str/join " " cmd) ": " (str/trim err)) r)))
    r))

(defn sleep-ms [ms]
  (when (pos? ms) (Thread/sleep (long ms))))

(defn delete-tree!
  "Deletes a file or directory recursively; no error when it is absent."
  [f]
  (let [f (io/file f)]
    (when (.exists f)
      (doseq [c (reverse (file-seq f))]
        (.delete ^java.io.File c)))))

(defn shuffle-with
  "The elements of `xs` in an order drawn from `rng` (one draw per element, so the sort's comparator stays
  consistent, as TimSort requires)."
  [^java.util.Random rng xs]
  (map second (sort-by first (map (fn [x] [(.nextDouble rng) x]) xs))))
