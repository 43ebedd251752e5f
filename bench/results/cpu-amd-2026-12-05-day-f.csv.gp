# Charts of the tilejit-bench run in bench/results/cpu-amd-2026-12-05-day-f.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-amd-2026-12-05-day-f.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-amd-2026-12-05-day-f.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 33.479
64 33.3453
EOD
$t0_1 << EOD
64 39.1279
EOD
$t0_2 << EOD
64 49.1535
64 48.8749
EOD
$t0_3 << EOD
64 58.6831
EOD
$t0_4 << EOD
64 25.6087
EOD
$t0_5 << EOD
64 46.6839
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
64 6.6277
64 6.63343
EOD
$t1_1 << EOD
64 6.05421
EOD
$t1_2 << EOD
64 11.7269
64 11.7423
EOD
$t1_3 << EOD
64 11.9434
EOD
$t1_4 << EOD
64 5.66922
EOD
$t1_5 << EOD
64 11.2226
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
64 8.44999
64 8.46076
EOD
$t2_1 << EOD
64 11.775
EOD
$t2_2 << EOD
64 11.0498
64 11.0087
EOD
$t2_3 << EOD
64 23.9735
EOD
$t2_4 << EOD
64 4.92368
EOD
$t2_5 << EOD
64 9.63468
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
64 30.9454
64 32.0205
EOD
$t3_1 << EOD
64 33.8387
EOD
$t3_2 << EOD
64 35.3658
64 35.1491
EOD
$t3_3 << EOD
64 42.0471
EOD
$t3_4 << EOD
64 27.5528
EOD
$t3_5 << EOD
64 37.1022
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
"cpu/sum: tilejit width-1, 1 thread" 1.16873
"cpu/sum: tilejit width-1, 2 threads" 1.19387
"cpu/sum: tilejit cooperative, 1 thread" 0.767985
"cpu/sum: tilejit cooperative, 2 threads" 0.955172
"cpu/histogram: tilejit width-1, 1 thread" 0.913471
"cpu/histogram: tilejit width-1, 2 threads" 1.01846
"cpu/histogram: tilejit cooperative, 1 thread" 0.854643
"cpu/histogram: tilejit cooperative, 2 threads" 0.955735
"cpu/compact: tilejit width-1, 1 thread" 1.39349
"cpu/compact: tilejit width-1, 2 threads" 2.16958
"cpu/compact: tilejit cooperative, 1 thread" 0.581943
"cpu/compact: tilejit cooperative, 2 threads" 0.875192
"cpu/copy: tilejit width-1, 1 thread" 1.0935
"cpu/copy: tilejit width-1, 2 threads" 1.18892
"cpu/copy: tilejit cooperative, 1 thread" 0.860473
"cpu/copy: tilejit cooperative, 2 threads" 1.05557
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
"ptx/store_doubled_thread_indices" 17.0844
"ptx/multiply_elements" 13.7498
"ptx/row_products" 10.1115
"ptx/replace_rows" 11.2352
"ptx/histogram" 13.0341
"ptx/compact_values" 7.3081
"ptx/large" 1.72414
"ptx-first/store_doubled_thread_indices" 7.72955
"ptx-first/multiply_elements" 7.27383
"ptx-first/row_products" 6.51302
"ptx-first/replace_rows" 7.01322
"ptx-first/histogram" 7.38325
"ptx-first/compact_values" 5.38834
"ptx-first/large" 1.61523
"disk/store_doubled_thread_indices" 2.45472
"disk/store_doubled_thread_indices (CPU)" 7.51011
"disk/multiply_elements" 2.7875
"disk/multiply_elements (CPU)" 8.74906
"disk/row_products" 2.88688
"disk/row_products (CPU)" 7.0321
"disk/replace_rows" 2.56404
"disk/replace_rows (CPU)" 9.1723
"disk/histogram" 2.43646
"disk/histogram (CPU)" 7.91365
"disk/compact_values" 3.00656
"disk/compact_values (CPU)" 9.42145
"disk/large" 5.81932
"disk/large (CPU)" 34.9611
"source/store_doubled_thread_indices" 17.358
"source-first/store_doubled_thread_indices" 8.32204
"source/multiply_elements" 13.9706
"source-first/multiply_elements" 7.9059
"source/row_products" 9.99691
"source-first/row_products" 6.56031
"source/replace_rows" 10.9194
"source-first/replace_rows" 6.84427
"source/histogram" 12.926
"source-first/histogram" 7.17
"source/compact_values" 7.11828
"source-first/compact_values" 5.22012
"source/large" 1.76167
"source-first/large" 1.59157
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
