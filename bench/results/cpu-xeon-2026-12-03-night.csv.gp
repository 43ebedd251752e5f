# Charts of the tilejit-bench run in bench/results/cpu-xeon-2026-12-03-night.csv (Intel(R) Xeon(R) Processor); the data is inline.
# Render: tools/plot.sh bench/results/cpu-xeon-2026-12-03-night.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-xeon-2026-12-03-night.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 29.2683
64 27.1094
EOD
$t0_1 << EOD
64 27.7408
EOD
$t0_2 << EOD
4 27.9225
64 48.4481
EOD
$t0_3 << EOD
64 49.3628
EOD
$t0_4 << EOD
4 28.687
EOD
$t0_5 << EOD
4 41.143
EOD
set output outdir.'/throughput_cpu_sum.png'
set title 'cpu/sum: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t0_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t0_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t0_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t0_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t0_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t0_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/histogram
$t1_0 << EOD
4 4.06532
64 3.76297
EOD
$t1_1 << EOD
64 2.9227
EOD
$t1_2 << EOD
4 6.97918
64 7.03449
EOD
$t1_3 << EOD
64 6.27889
EOD
$t1_4 << EOD
4 1.88284
EOD
$t1_5 << EOD
4 4.15188
EOD
set output outdir.'/throughput_cpu_histogram.png'
set title 'cpu/histogram: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t1_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t1_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t1_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t1_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t1_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t1_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/compact
$t2_0 << EOD
4 3.40373
64 3.42346
EOD
$t2_1 << EOD
64 4.18357
EOD
$t2_2 << EOD
4 4.71494
64 5.19445
EOD
$t2_3 << EOD
64 7.87318
EOD
$t2_4 << EOD
4 0.84613
EOD
$t2_5 << EOD
4 1.61617
EOD
set output outdir.'/throughput_cpu_compact.png'
set title 'cpu/compact: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t2_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t2_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t2_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t2_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t2_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t2_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/copy
$t3_0 << EOD
4 27.9636
64 13.5157
EOD
$t3_1 << EOD
64 13.4143
EOD
$t3_2 << EOD
4 30.8274
64 41.2829
EOD
$t3_3 << EOD
64 42.7186
EOD
$t3_4 << EOD
4 14.0494
EOD
$t3_5 << EOD
4 23.1215
EOD
set output outdir.'/throughput_cpu_copy.png'
set title 'cpu/copy: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t3_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t3_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t3_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t3_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t3_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t3_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- ratios to the reference
$ratio_throughput << EOD
"cpu/sum: tilejit width-1, 1 thread" 1.02329
"cpu/sum: tilejit width-1, 2 threads" 1.01888
"cpu/sum: tilejit cooperative, 1 thread" 0.980141
"cpu/sum: tilejit cooperative, 2 threads" 1.47347
"cpu/histogram: tilejit width-1, 1 thread" 0.776701
"cpu/histogram: tilejit width-1, 2 threads" 0.892587
"cpu/histogram: tilejit cooperative, 1 thread" 0.463148
"cpu/histogram: tilejit cooperative, 2 threads" 0.594894
"cpu/compact: tilejit width-1, 1 thread" 1.22203
"cpu/compact: tilejit width-1, 2 threads" 1.51569
"cpu/compact: tilejit cooperative, 1 thread" 0.248589
"cpu/compact: tilejit cooperative, 2 threads" 0.342776
"cpu/copy: tilejit width-1, 1 thread" 0.992495
"cpu/copy: tilejit width-1, 2 threads" 1.03478
"cpu/copy: tilejit cooperative, 1 thread" 0.502417
"cpu/copy: tilejit cooperative, 2 threads" 0.75003
EOD
set output outdir.'/ratio_throughput.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_throughput using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0

# ---- ratios to the reference
$ratio_compile << EOD
"ptx/store_doubled_thread_indices" 15.2752
"ptx/multiply_elements" 12.3202
"ptx/row_products" 7.99794
"ptx/replace_rows" 10.3978
"ptx/histogram" 13.5671
"ptx/compact_values" 6.7463
"ptx/large" 1.70666
"ptx-first/store_doubled_thread_indices" 8.21397
"ptx-first/multiply_elements" 7.639
"ptx-first/row_products" 5.473
"ptx-first/replace_rows" 7.53899
"ptx-first/histogram" 8.40305
"ptx-first/compact_values" 4.38931
"ptx-first/large" 1.59319
"disk/store_doubled_thread_indices" 2.39106
"disk/store_doubled_thread_indices (CPU)" 8.06626
"disk/multiply_elements" 2.04966
"disk/multiply_elements (CPU)" 7.33476
"disk/row_products" 3.46438
"disk/row_products (CPU)" 9.74718
"disk/replace_rows" 2.73572
"disk/replace_rows (CPU)" 9.33341
"disk/histogram" 2.12349
"disk/histogram (CPU)" 5.64549
"disk/compact_values" 3.03077
"disk/compact_values (CPU)" 9.69598
"disk/large" 5.20784
"disk/large (CPU)" 24.0568
"source/store_doubled_thread_indices" 19.1233
"source-first/store_doubled_thread_indices" 5.71922
"source/multiply_elements" 16.5654
"source-first/multiply_elements" 7.52315
"source/row_products" 6.79875
"source-first/row_products" 5.10323
"source/replace_rows" 13.349
"source-first/replace_rows" 5.46543
"source/histogram" 10.922
"source-first/histogram" 6.15482
"source/compact_values" 5.05375
"source-first/compact_values" 4.92382
"source/large" 1.4136
"source-first/large" 1.72899
EOD
set output outdir.'/ratio_compile.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_compile using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0
