# Charts of the tilejit-bench run in bench/results/cpu-amd-2026-12-06-seventh.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-amd-2026-12-06-seventh.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-amd-2026-12-06-seventh.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 10.9284
64 10.6202
EOD
$t0_1 << EOD
64 11.4856
EOD
$t0_2 << EOD
64 21.9144
64 14.0281
EOD
$t0_3 << EOD
64 21.1134
EOD
$t0_4 << EOD
64 9.74801
EOD
$t0_5 << EOD
64 13.4371
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
64 4.87773
64 5.1985
EOD
$t1_1 << EOD
64 5.30958
EOD
$t1_2 << EOD
64 5.07705
64 9.02858
EOD
$t1_3 << EOD
64 7.72146
EOD
$t1_4 << EOD
64 5.63758
EOD
$t1_5 << EOD
64 11.3373
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
64 5.84115
64 6.13152
EOD
$t2_1 << EOD
64 6.80438
EOD
$t2_2 << EOD
64 8.71313
64 8.56153
EOD
$t2_3 << EOD
64 13.1955
EOD
$t2_4 << EOD
64 5.24829
EOD
$t2_5 << EOD
64 9.81032
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
64 18.1094
64 16.565
EOD
$t3_1 << EOD
64 18.9633
EOD
$t3_2 << EOD
64 25.1022
64 19.3462
EOD
$t3_3 << EOD
64 26.348
EOD
$t3_4 << EOD
64 15.9605
EOD
$t3_5 << EOD
64 19.7157
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
"cpu/sum: tilejit width-1, 1 thread" 1.05098
"cpu/sum: tilejit width-1, 2 threads" 0.963449
"cpu/sum: tilejit cooperative, 1 thread" 0.91787
"cpu/sum: tilejit cooperative, 2 threads" 0.957874
"cpu/histogram: tilejit width-1, 1 thread" 1.08853
"cpu/histogram: tilejit width-1, 2 threads" 1.52085
"cpu/histogram: tilejit cooperative, 1 thread" 1.08446
"cpu/histogram: tilejit cooperative, 2 threads" 1.25571
"cpu/compact: tilejit width-1, 1 thread" 1.1649
"cpu/compact: tilejit width-1, 2 threads" 1.51444
"cpu/compact: tilejit cooperative, 1 thread" 0.855953
"cpu/compact: tilejit cooperative, 2 threads" 1.14586
"cpu/copy: tilejit width-1, 1 thread" 1.04715
"cpu/copy: tilejit width-1, 2 threads" 1.04963
"cpu/copy: tilejit cooperative, 1 thread" 0.963505
"cpu/copy: tilejit cooperative, 2 threads" 1.0191
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
"ptx/store_doubled_thread_indices" 18.5276
"ptx/multiply_elements" 14.5143
"ptx/row_products" 10.2683
"ptx/replace_rows" 12.2345
"ptx/histogram" 11.7394
"ptx/compact_values" 7.04338
"ptx/large" 1.68438
"ptx-first/store_doubled_thread_indices" 7.98025
"ptx-first/multiply_elements" 8.03287
"ptx-first/row_products" 6.14259
"ptx-first/replace_rows" 6.83632
"ptx-first/histogram" 7.51957
"ptx-first/compact_values" 5.22405
"ptx-first/large" 1.55805
"disk/store_doubled_thread_indices" 3.52249
"disk/store_doubled_thread_indices (CPU)" 7.50858
"disk/multiply_elements" 3.56878
"disk/multiply_elements (CPU)" 6.57319
"disk/row_products" 3.74955
"disk/row_products (CPU)" 7.17474
"disk/replace_rows" 3.68054
"disk/replace_rows (CPU)" 8.91239
"disk/histogram" 3.38005
"disk/histogram (CPU)" 7.91924
"disk/compact_values" 3.99628
"disk/compact_values (CPU)" 11.9071
"disk/large" 8.90501
"disk/large (CPU)" 32.2835
"source/store_doubled_thread_indices" 18.4742
"source-first/store_doubled_thread_indices" 7.90145
"source/multiply_elements" 15.4412
"source-first/multiply_elements" 7.28228
"source/row_products" 10.45
"source-first/row_products" 6.03672
"source/replace_rows" 12.367
"source-first/replace_rows" 6.12788
"source/histogram" 13.333
"source-first/histogram" 6.53215
"source/compact_values" 7.92292
"source-first/compact_values" 4.70567
"source/large" 1.27074
"source-first/large" 1.10616
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
