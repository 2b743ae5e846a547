(ns duro.jepsen.timeline
  "timeline.png: throughput (ok / fail / info completions per second) above, latency of every operation
  (log scale, by outcome) below, fault windows shaded and labelled across both. Drawn with java.awt,
  headless."
  (:require [clojure.string :as str])
  (:import (java.awt BasicStroke Color Font RenderingHints Graphics2D)
           (java.awt.image BufferedImage)
           (javax.imageio ImageIO)))

(def ^:private colors
  {:ok (Color. 46 160 67) :fail (Color. 230 140 20) :info (Color. 215 40 40)})

(def ^:private fault-colors
  {:kill (Color. 220 60 60 50) :pause (Color. 140 90 200 50) :partition (Color. 50 110 220 50)
   :loss (Color. 230 160 30 55) :wipe (Color. 120 120 120 60)})

(defn- completions
  "Client completions with their latency: [{:type :t-s :lat-ms :f}]."
  [history]
  (let [invokes (atom {})]
    (reduce (fn [acc op]
              (cond
                (= :nemesis (:process op)) acc
                (= :invoke (:type op)) (do (swap! invokes assoc (:process op) op) acc)
                :else (let [inv (get @invokes (:process op))]
                        (swap! invokes dissoc (:process op))
                        (if inv
                          (conj acc {:type (:type op) :f (:f op) :t-s (/ (:time op) 1e9)
                                     :lat-ms (max 0.05 (/ (- (:time op) (:time inv)) 1e6))})
                          acc))))
            [] history)))

(defn- nice-step [span target]
  (let [raw (/ span (max 1 target))
        mag (Math/pow 10 (Math/floor (Math/log10 (max raw 1e-9))))]
    (some #(when (>= (* % mag) raw) (* % mag)) [1 2 5 10])))

(defn window-detail
  "The small label under a fault's name: its targets, or for a partition its shape and the cut links."
  [w]
  (if-let [cut (get-in w [:start :cut])]
    (str (some-> (get-in w [:start :shape]) name) ": "
         (str/join " " (sort (distinct (for [[a bs] cut, b bs] (str/join "-" (sort [a b])))))) " cut")
    (str (str/join "," (map name (:targets w)))
         (when-let [p (get-in w [:start :percent])] (str " " p "% loss")))))

(defn render!
  [file {:keys [title history windows result marks]}]
  (let [W 1500 H 950
        img (BufferedImage. W H BufferedImage/TYPE_INT_RGB)
        g ^Graphics2D (.createGraphics img)
        cs (completions history)
        t-max (max 1.0 (reduce max 0 (map :t-s cs))
                   (reduce max 0 (map #(/ (:stop-ns %) 1e9) windows)))
        left 90 right (- W 40)
        x-of (fn [t] (+ left (* (- right left) (/ t t-max))))
        ;; panels
        tp-top 140 tp-bot 470
        lat-top 530 lat-bot 880
        secs (int (Math/ceil t-max))
        per-sec (fn [type] (let [v (int-array (inc secs))]
                             (doseq [c cs :when (= type (:type c))]
                               (let [i (int (:t-s c))] (aset v i (inc (aget v i)))))
                             v))
        series {:ok (per-sec :ok) :fail (per-sec :fail) :info (per-sec :info)}
        y-max (max 5 (reduce max 0 (mapcat seq (vals series))))
        y-tp (fn [v] (- tp-bot (* (- tp-bot tp-top) (/ v (double y-max)))))
        lats (map :lat-ms cs)
        lat-lo 0.1 lat-hi (max 100.0 (* 1.5 (reduce max 1.0 lats)))
        y-lat (fn [ms] (- lat-bot (* (- lat-bot lat-top)
                                      (/ (Math/log10 (/ (max ms lat-lo) lat-lo)) (Math/log10 (/ lat-hi lat-lo))))))]
    (doto g
      (.setRenderingHint RenderingHints/KEY_ANTIALIASING RenderingHints/VALUE_ANTIALIAS_ON)
      (.setColor Color/WHITE) (.fillRect 0 0 W H))
    ;; title and verdict
    (.setColor g Color/BLACK)
    (.setFont g (Font. Font/SANS_SERIF Font/BOLD 22))
    (.drawString g (str "Duro — " title) left 36)
    (.setFont g (Font. Font/SANS_SERIF Font/PLAIN 15))
    (let [v (:valid? result)
          counts (frequencies (map :type cs))]
      (.setColor g (cond (true? v) (colors :ok) (false? v) (colors :info) :else (colors :fail)))
      (.drawString g (str "verdict: " (pr-str v)
                          (when (seq (:unknown result)) (str "   (unknown: " (str/join ", " (map name (:unknown result))) ")")))
                   left 62)
      (.setColor g Color/DARK_GRAY)
      (.drawString g (format "%d ok, %d fail, %d info; %d faults" (counts :ok 0) (counts :fail 0) (counts :info 0)
                             (count windows))
                   (- W 420) 36))
    ;; fault windows across both panels
    (.setFont g (Font. Font/SANS_SERIF Font/BOLD 13))
    (doseq [w windows]
      (let [x0 (x-of (/ (:start-ns w) 1e9)) x1 (x-of (/ (:stop-ns w) 1e9))
            c (fault-colors (:kind w) (Color. 0 0 0 40))]
        (.setColor g c)
        (.fillRect g (int x0) tp-top (int (max 2 (- x1 x0))) (- lat-bot tp-top))
        (.setColor g (Color. (.getRed c) (.getGreen c) (.getBlue c)))
        (.drawString g (name (:kind w)) (int (+ x0 4)) (- tp-top 22))
        (.setFont g (Font. Font/SANS_SERIF Font/PLAIN 11))
        (.drawString g ^String (window-detail w) (int (+ x0 4)) (- tp-top 8))
        (.setFont g (Font. Font/SANS_SERIF Font/BOLD 13))))
    ;; phase marks: dashed vertical lines
    (.setFont g (Font. Font/SANS_SERIF Font/PLAIN 11))
    (doseq [{:keys [t-s label]} marks]
      (let [x (int (x-of t-s))]
        (.setColor g (Color. 90 90 90))
        (.setStroke g (BasicStroke. 1.0 BasicStroke/CAP_BUTT BasicStroke/JOIN_MITER 10.0 (float-array [6 4]) 0.0))
        (.drawLine g x tp-top x lat-bot)
        (.drawString g ^String label (+ x 4) (+ tp-top 14))))
    (.setStroke g (BasicStroke. 1.0))
    ;; axes
    (.setFont g (Font. Font/SANS_SERIF Font/PLAIN 12))
    (let [step (nice-step t-max 15)]
      (doseq [t (range 0 (+ t-max 1e-9) step)]
        (let [x (int (x-of t))]
          (.setColor g (Color. 230 230 230))
          (.drawLine g x tp-top x tp-bot) (.drawLine g x lat-top x lat-bot)
          (.setColor g Color/DARK_GRAY)
          (.drawString g (str (long t)) (- x 8) (+ lat-bot 18)))))
    (.drawString g "seconds since test start" (- (quot (+ left right) 2) 70) (+ lat-bot 40))
    (let [step (nice-step y-max 6)]
      (doseq [v (range 0 (+ y-max 1e-9) step)]
        (let [y (int (y-tp v))]
          (.setColor g (Color. 230 230 230)) (.drawLine g left y right y)
          (.setColor g Color/DARK_GRAY) (.drawString g (str (long v)) (- left 40) (+ y 4)))))
    (doseq [ms [0.1 1 10 100 1000 10000 100000] :when (<= ms lat-hi)]
      (let [y (int (y-lat ms))]
        (.setColor g (Color. 230 230 230)) (.drawLine g left y right y)
        (.setColor g Color/DARK_GRAY)
        (.drawString g (cond (>= ms 1000) (str (long (/ ms 1000)) " s") (>= ms 1) (str (long ms) " ms") :else (str ms " ms"))
                     (- left 62) (+ y 4))))
    (.setColor g Color/BLACK)
    (.setStroke g (BasicStroke. 1.2))
    (.drawRect g left tp-top (- right left) (- tp-bot tp-top))
    (.drawRect g left lat-top (- right left) (- lat-bot lat-top))
    (.setFont g (Font. Font/SANS_SERIF Font/BOLD 14))
    (.drawString g "throughput (completions per second)" left (- tp-top 45))
    (.drawString g "latency (each operation, log scale)" left (- lat-top 10))
    ;; throughput lines
    (.setStroke g (BasicStroke. 2.0))
    (doseq [type [:ok :fail :info]]
      (let [^ints v (series type)]
        (.setColor g (colors type))
        (doseq [i (range secs)]
          (.drawLine g (int (x-of (+ i 0.5))) (int (y-tp (aget v i)))
                     (int (x-of (+ i 1.5))) (int (y-tp (aget v (inc i))))))))
    ;; latency dots (info last so they stay visible)
    (doseq [type [:ok :fail :info]]
      (.setColor g (let [c (colors type)] (Color. (.getRed c) (.getGreen c) (.getBlue c) 150)))
      (doseq [c cs :when (= type (:type c))]
        (.fillOval g (int (- (x-of (:t-s c)) 2)) (int (- (y-lat (:lat-ms c)) 2)) 5 5)))
    ;; legend
    (.setFont g (Font. Font/SANS_SERIF Font/PLAIN 13))
    (doseq [[i type] (map-indexed vector [:ok :fail :info])]
      (let [x (+ (- W 420) (* i 110)) y (- tp-top 45)]
        (.setColor g (colors type)) (.fillRect g x (- y 10) 14 10)
        (.setColor g Color/BLACK) (.drawString g (name type) (+ x 20) y)))
    (.dispose g)
    (ImageIO/write img "png" (clojure.java.io/file file))))
